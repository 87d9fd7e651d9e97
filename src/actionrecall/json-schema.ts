/** A JSON Schema (or OpenAPI schema object) node, as parsed JSON. */
export type JsonSchema = Record<string, unknown>;

/** Thrown when a schema cannot be turned into a function definition; the message says why. */
export class SchemaConversionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SchemaConversionError';
  }
}

export function isPlainObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asObject(value: unknown): JsonSchema {
  return isPlainObject(value) ? value : {};
}

/** An own property only: keys such as `__proto__` or `constructor` in hostile input never reach prototypes. */
export function ownValue(container: JsonSchema, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(container, key) ? container[key] : undefined;
}

/** Quotes a value from the input in an error message without letting it grow unbounded. */
export function quote(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}…` : text);
}
