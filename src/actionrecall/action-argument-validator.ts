import Ajv2020, { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { JsonSchema } from './json-schema';

/** Compiled parameter schemas kept; each is one action's tool, so this bounds memory, not correctness. */
export const MAX_COMPILED_SCHEMAS = 256;
/** Violations listed in one answer; the rest are counted. */
export const MAX_LISTED_VIOLATIONS = 20;

interface Compiled {
  schema: JsonSchema;
  validate: ValidateFunction;
}

/** `/items/0/name` → `items[0].name` (RFC 6901 pointer tokens decoded). */
function fieldPath(pointer: string, child?: unknown): string {
  const tokens = pointer === '' ? [] : pointer.slice(1).split('/');
  if (typeof child === 'string') tokens.push(child);
  return tokens
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((token, i) => (/^\d+$/.test(token) ? `[${token}]` : i === 0 ? token : `.${token}`))
    .join('');
}

function describeViolation(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return `${fieldPath(error.instancePath, params.missingProperty)} is required`;
  if (error.keyword === 'additionalProperties') {
    return `${fieldPath(error.instancePath, params.additionalProperty)} is not allowed`;
  }
  const field = fieldPath(error.instancePath) || 'arguments';
  if (error.keyword === 'enum') return `${field} must be one of ${JSON.stringify(params.allowedValues)}`;
  return `${field} ${error.message ?? 'is invalid'}`;
}

/**
 * Validates merged action arguments against the recalled `parameters` JSON Schema with ajv (2020-12, the
 * dialect MCP tools use; `format` is not checked). Compiled validators are cached by the schema's content
 * in a bounded LRU, and an evicted schema is removed from ajv too, whose own cache would otherwise grow
 * with every recall.
 */
export class ActionArgumentValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false, logger: false });
  private readonly compiled = new LRUCache<string, Compiled>({
    max: MAX_COMPILED_SCHEMAS,
    dispose: (entry) => this.ajv.removeSchema(entry.schema),
  });

  /** One line per violation (`days_supply must be integer`), at most MAX_LISTED_VIOLATIONS; [] when valid. */
  violations(schema: JsonSchema, args: unknown): string[] {
    const { validate } = this.compile(schema);
    if (validate(args)) return [];
    const lines = [...new Set((validate.errors ?? []).map(describeViolation))];
    if (lines.length <= MAX_LISTED_VIOLATIONS) return lines;
    return [...lines.slice(0, MAX_LISTED_VIOLATIONS), `… and ${lines.length - MAX_LISTED_VIOLATIONS} more`];
  }

  /** Throws ajv's own error when the schema itself is invalid; the caller reports it. */
  private compile(schema: JsonSchema): Compiled {
    const json = JSON.stringify(schema);
    const key = createHash('sha256').update(json).digest('base64url');
    let entry = this.compiled.get(key);
    if (!entry) {
      // A private copy without $id: two tools declaring the same $id must not collide in ajv's registry.
      const { $id: _id, ...copy } = JSON.parse(json) as JsonSchema;
      try {
        entry = { schema: copy, validate: this.ajv.compile(copy) };
      } catch (error) {
        this.ajv.removeSchema(copy);
        throw error;
      }
      this.compiled.set(key, entry);
    }
    return entry;
  }
}
