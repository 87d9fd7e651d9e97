// Deeper than this is not data a capability returns: such a value takes JSON's own (throwing) round trip.
const MAX_DEPTH = 256;

/**
 * The value exactly as `JSON.parse(JSON.stringify(value))` would give it — undefined, functions and
 * symbols dropped from objects (null in arrays), non-finite numbers null, `toJSON` applied — built by
 * one walk instead of text and a parse: several times cheaper, and the fresh objects encode faster.
 */
export function plainJson(value: unknown): unknown {
  try {
    return plain(value, 0);
  } catch (error) {
    if (error === TOO_DEEP) return JSON.parse(JSON.stringify(value)) as unknown;
    throw error;
  }
}

const TOO_DEEP = Symbol('too deep');

function plain(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'object':
      break;
    default:
      return value;
  }
  if (value === null) return null;
  if (depth > MAX_DEPTH) throw TOO_DEEP;
  const withToJson = value as { toJSON?: () => unknown };
  if (typeof withToJson.toJSON === 'function') return plain(withToJson.toJSON(), depth + 1);
  if (value instanceof Number || value instanceof String || value instanceof Boolean)
    return plain(value.valueOf(), depth);
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      copy[index] = dropped(item) ? null : plain(item, depth + 1);
    }
    return copy;
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if (!dropped(item)) copy[key] = plain(item, depth + 1);
  }
  return copy;
}

const dropped = (value: unknown): boolean =>
  value === undefined || typeof value === 'function' || typeof value === 'symbol';
