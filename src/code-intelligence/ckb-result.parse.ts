/** A symbol or reference CKB reported, reduced to what graph-RAG needs. */
export interface CkbLocatedItem {
  id?: string;
  name?: string;
  file: string;
  line?: number;
  depth?: number;
  /** `callers`/`callees` when the item sat under such a key. */
  role?: 'callers' | 'callees';
}

const FILE_KEYS = ['path', 'filePath', 'file', 'fileId', 'uri'];
const ID_KEYS = ['stableId', 'symbolId', 'id'];
const NAME_KEYS = ['name', 'symbol', 'displayName'];
const LINE_KEYS = ['startLine', 'line'];
const MAX_DEPTH = 8;
const MAX_ITEMS = 500;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const firstString = (value: Json, keys: string[]): string | undefined =>
  keys.map((key) => value[key]).find((entry): entry is string => typeof entry === 'string' && entry.length > 0);
const firstNumber = (value: Json, keys: string[]): number | undefined =>
  keys.map((key) => value[key]).find((entry): entry is number => typeof entry === 'number' && Number.isFinite(entry));

function locate(value: Json): { file?: string; line?: number } {
  const location = isObject(value.location) ? value.location : isObject(value.range) ? value.range : undefined;
  const start = location && isObject(location.start) ? location.start : undefined;
  const file = firstString(value, FILE_KEYS) ?? (location ? firstString(location, FILE_KEYS) : undefined);
  const line =
    firstNumber(value, LINE_KEYS) ??
    (location ? firstNumber(location, LINE_KEYS) : undefined) ??
    (start ? firstNumber(start, LINE_KEYS) : undefined);
  return { file: file?.replace(/^file:\/\//, ''), line };
}

/**
 * Collects every object carrying a file location from a CKB tool result. CKB's result shapes differ
 * by tool and version, so this reads the common field names (`location.fileId`, `path`, `stableId`,
 * `startLine`, `depth`) wherever they appear instead of binding to one schema.
 */
export function locatedItems(result: unknown): CkbLocatedItem[] {
  const items: CkbLocatedItem[] = [];
  const visit = (value: unknown, depth: number, role?: CkbLocatedItem['role']): void => {
    if (depth > MAX_DEPTH || items.length >= MAX_ITEMS) return;
    if (Array.isArray(value)) return value.forEach((entry) => visit(entry, depth + 1, role));
    if (!isObject(value)) return;
    const { file, line } = locate(value);
    if (file) {
      items.push({
        id: firstString(value, ID_KEYS),
        name: firstString(value, NAME_KEYS),
        file,
        line,
        depth: firstNumber(value, ['depth', 'distance']),
        role,
      });
    }
    for (const [key, child] of Object.entries(value)) {
      if (key === 'location' || key === 'range') continue;
      visit(child, depth + 1, key === 'callers' || key === 'callees' ? key : role);
    }
  };
  visit(result, 0);
  return items;
}
