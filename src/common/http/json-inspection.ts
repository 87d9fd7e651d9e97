import { AppException } from '../errors/app.exception';
import { ValidationErrors } from '../errors/error-codes';
import { LocalizedDetails } from '../errors/localized-details';

export type JsonPath = (string | number)[];

/** A JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How far a parsed JSON value may go before any validator or schema walks it. */
export interface JsonBounds {
  /** Levels of nesting; the root is level 1. */
  depth: number;
  /** Elements of any one array. */
  items: number;
}

/** Something in a parsed JSON value that no later step may see: too deep, too long, or not valid Unicode. */
export interface JsonProblem {
  kind: 'depth' | 'items' | 'unicode';
  /** Keys and indexes from the root to the offending value or key. */
  path: JsonPath;
}

interface Frame {
  value: unknown;
  depth: number;
  parent?: Frame;
  key?: string | number;
}

const MAX_SHOWN_PATH = 200;

/**
 * Walks a parsed JSON value without recursion (so its own depth cannot overflow the stack) and returns
 * the first container nested deeper than the bound, the first array longer than the bound (validators
 * spend microseconds per element, schemas more when every element fails), or the first string or key
 * holding an unpaired UTF-16 surrogate, which UTF-8, SQLite and the TOON encoder all refuse.
 */
export function inspectJson(root: unknown, bounds: JsonBounds): JsonProblem | undefined {
  const stack: Frame[] = [{ value: root, depth: 1 }];
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    const { value, depth } = frame;
    if (typeof value === 'string') {
      if (!value.isWellFormed()) return { kind: 'unicode', path: pathOf(frame) };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > bounds.depth) return { kind: 'depth', path: pathOf(frame) };
    if (Array.isArray(value) && value.length > bounds.items) return { kind: 'items', path: pathOf(frame) };
    const entries: [string | number, unknown][] = Array.isArray(value) ? [...value.entries()] : Object.entries(value);
    for (const [key, child] of entries) {
      const next: Frame = { value: child, depth: depth + 1, parent: frame, key };
      if (typeof key === 'string' && !key.isWellFormed()) return { kind: 'unicode', path: pathOf(next) };
      stack.push(next);
    }
  }
  return undefined;
}

function pathOf(frame: Frame): JsonPath {
  const path: JsonPath = [];
  for (let at: Frame | undefined = frame; at?.key !== undefined; at = at.parent) path.unshift(at.key);
  return path;
}

/** `a.b[0].c`, printable (unpaired surrogates replaced) and bounded in length. */
export function formatJsonPath(path: JsonPath, root = 'request body'): string {
  if (path.length === 0) return root;
  const text = path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${key.toWellFormed().slice(0, 64)}`))
    .join('');
  return text.length > MAX_SHOWN_PATH ? `${text.slice(0, MAX_SHOWN_PATH)}…` : text;
}

/**
 * What is wrong, as translated details: depth names the top-level field it starts under (the full path
 * can be as long as the limit); a long array or a bad string names its exact place.
 */
export function jsonProblemDetails(problem: JsonProblem, bounds: JsonBounds): LocalizedDetails {
  if (problem.kind === 'unicode')
    return new LocalizedDetails('validation.unicode', { field: formatJsonPath(problem.path) });
  if (problem.kind === 'depth') {
    return new LocalizedDetails('validation.depth', {
      field: formatJsonPath(problem.path.slice(0, 1)),
      limit: bounds.depth,
    });
  }
  return new LocalizedDetails('validation.arrayMaxSize', { field: formatJsonPath(problem.path), limit: bounds.items });
}

/** The REST 400 for a problem: InvalidUnicode for bad text, LimitExceeded for depth and length. */
export function jsonProblemException(problem: JsonProblem, bounds: JsonBounds): AppException {
  const definition = problem.kind === 'unicode' ? ValidationErrors.InvalidUnicode : ValidationErrors.LimitExceeded;
  return new AppException(definition, jsonProblemDetails(problem, bounds));
}
