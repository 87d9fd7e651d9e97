import { Logger } from '@nestjs/common';
import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { LRUCache } from 'lru-cache';
import { convertMcpSchemaToFunctionCall } from '../actionrecall/schema-converter';
import { AppException } from '../common/errors/app.exception';
import { describeViolations } from '../common/json/schema-violations';
import { OperatorErrors } from './operator.errors';
import { McpToolDetail } from './operator.types';

/** Tools whose compiled schema is kept; past it the least used is compiled again on its next call. */
export const MAX_CACHED_TOOL_SCHEMAS = 512;

interface Entry {
  /** The inputSchema object compiled (a refreshed tool list carries new objects). */
  source: Record<string, unknown>;
  /** Its JSON, to keep the compiled one when a refreshed list brings the same schema again. */
  json: string;
  /** The private copy given to ajv, removed from ajv when the entry goes. */
  copy: Record<string, unknown>;
  validate?: ValidateFunction;
  /** Why ajv could not compile the schema (then `validate` is undefined). */
  problem?: string;
}

/**
 * MCP tool input schemas compiled with ajv (JSON Schema 2020-12, the MCP default dialect; `format`
 * checked with ajv-formats), once per tool: an entry is reused while the tool list hands out the same
 * schema and replaced when a refreshed list brings a different one. Bounded, and an evicted schema
 * leaves ajv's own registry too.
 */
export class ToolSchemaCache {
  private readonly logger = new Logger('ToolSchemaCache');
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
  private readonly entries = new LRUCache<string, Entry>({
    max: MAX_CACHED_TOOL_SCHEMAS,
    dispose: (entry) => this.ajv.removeSchema(entry.copy),
  });

  constructor() {
    addFormats(this.ajv);
  }

  /**
   * One line per violation naming the field (`qty must be integer`); [] when valid. A schema ajv cannot
   * compile is a 500 (seed 000 §7.3: Schema 格式错误 → 500 + 详细日志), logged with ajv's reason once.
   */
  violations(mcpId: string, tool: McpToolDetail, args: Record<string, unknown>): string[] {
    const { validate } = this.entry(mcpId, tool);
    if (!validate) {
      throw new AppException(
        OperatorErrors.InvalidOperatorDefinition,
        `the inputSchema of MCP tool ${mcpId}/${tool.name} cannot be used to check arguments`,
      );
    }
    return validate(args) ? [] : describeViolations(validate.errors);
  }

  private entry(mcpId: string, tool: McpToolDetail): Entry {
    const key = `${mcpId}\u0000${tool.name}`;
    const cached = this.entries.get(key);
    if (cached?.source === tool.inputSchema) return cached;
    const json = JSON.stringify(tool.inputSchema ?? {});
    if (cached?.json === json) {
      cached.source = tool.inputSchema;
      return cached;
    }
    const entry = this.compile(`${mcpId}/${tool.name}`, tool.inputSchema, json);
    this.entries.set(key, entry);
    return entry;
  }

  private compile(name: string, source: Record<string, unknown>, json: string): Entry {
    // A private copy: `$id` would collide between tools in ajv's registry, and a `$schema` naming another
    // draft (draft-07 from older SDKs) is read as 2020-12, the dialect MCP tool schemas default to.
    const { $id: _id, $schema: _dialect, ...copy } = JSON.parse(json) as Record<string, unknown>;
    try {
      return { source, json, copy, validate: this.ajv.compile(copy) };
    } catch (error) {
      this.ajv.removeSchema(copy);
      const problem = error instanceof Error ? error.message : String(error);
      // Only a reference that cannot be resolved is relaxed; any other fault stays a 500.
      const relaxed = isMissingRef(error) ? this.relaxed(copy) : undefined;
      if (relaxed) {
        // The same reading the model is given (chat's function parameters): what cannot be resolved is any value.
        this.logger.warn(
          `inputSchema of MCP tool ${name} checked with its unresolvable parts as any value: ${problem}`,
        );
        return { source, json, copy: relaxed.copy, validate: relaxed.validate };
      }
      this.logger.error(`inputSchema of MCP tool ${name} cannot be compiled: ${problem}`);
      return { source, json, copy, problem };
    }
  }

  /** The schema with its references inlined and the unresolvable ones as any value, compiled; undefined if even that fails. */
  private relaxed(
    schema: Record<string, unknown>,
  ): { copy: Record<string, unknown>; validate: ValidateFunction } | undefined {
    let copy: Record<string, unknown>;
    try {
      copy = convertMcpSchemaToFunctionCall(schema, { unresolved: () => ({}) });
    } catch {
      return undefined;
    }
    try {
      return { copy, validate: this.ajv.compile(copy) };
    } catch {
      this.ajv.removeSchema(copy);
      return undefined;
    }
  }
}

/** ajv's MissingRefError carries the reference it could not resolve. */
function isMissingRef(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && typeof (error as { missingRef?: unknown }).missingRef === 'string'
  );
}
