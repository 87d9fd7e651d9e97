import type { Language } from '../config/i18n.config';
import { ZH_HANS_DESCRIPTIONS } from './descriptions.zh-Hans';

/** An English description in the caller's language (the text itself when there is no translation). */
export function localizedText(text: string, language: Language): string {
  return language === 'zh-Hans' ? (ZH_HANS_DESCRIPTIONS[text] ?? text) : text;
}

const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/**
 * A JSON Schema as a listing shows it to a model: descriptions in the caller's language, and without
 * what says nothing to it — the dialect, empty `additionalProperties`/`properties`, zod's safe-integer
 * bounds. Validation still uses the full schema; this is only what is advertised.
 */
export function listedSchema(schema: Record<string, unknown>, language: Language): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return compact(rest, language) as Record<string, unknown>;
}

/**
 * An output schema as listed: the answer's fields and the kind of each, without the shape of what they
 * hold (a client validating structuredContent against it still accepts every answer; the full shape is
 * in OpenAPI). Models never read output schemas, so their bytes buy nothing in a listing.
 */
export function listedOutputSchema(schema: Record<string, unknown>, language: Language): Record<string, unknown> {
  return outline(listedSchema(schema, language), 0) as Record<string, unknown>;
}

/** Keeps the root's fields with their kind, and the required ones; nothing of what the fields hold. */
function outline(node: unknown, depth: number): unknown {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return node;
  const schema = node as Record<string, unknown>;
  if (depth >= 1) return schema.type === undefined ? {} : { type: schema.type };
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && value && typeof value === 'object') {
      const properties = Object.entries(value as Record<string, unknown>);
      result[key] = Object.fromEntries(properties.map(([name, child]) => [name, outline(child, depth + 1)]));
    } else if (key === 'items' || key === 'additionalProperties') {
      result[key] = outline(value, depth + 1);
    } else if (key !== '$defs' && key !== 'description') {
      result[key] = value;
    }
  }
  return result;
}

function compact(node: unknown, language: Language): unknown {
  if (Array.isArray(node)) return node.map((item) => compact(item, language));
  if (!node || typeof node !== 'object') return node;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if ((key === 'additionalProperties' || key === 'properties') && isEmptyObject(value)) continue;
    if ((key === 'minimum' || key === 'maximum') && SAFE_INTEGER_BOUNDS.has(value as number)) continue;
    if (key === 'description' && typeof value === 'string') result[key] = localizedText(value, language);
    // A property named `description` is a schema, not a text.
    else result[key] = compact(value, language);
  }
  return result;
}

function isEmptyObject(value: unknown): boolean {
  return !!value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;
}
