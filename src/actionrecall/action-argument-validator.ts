import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { describeViolations, MAX_LISTED_VIOLATIONS } from '../common/json/schema-violations';
import { JsonSchema } from './json-schema';

/** Compiled parameter schemas kept; each is one action's tool, so this bounds memory, not correctness. */
export const MAX_COMPILED_SCHEMAS = 256;
export { MAX_LISTED_VIOLATIONS };

interface Compiled {
  schema: JsonSchema;
  validate: ValidateFunction;
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
    return validate(args) ? [] : describeViolations(validate.errors);
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
