import { isPlainObject, JsonSchema, SchemaConversionError } from './json-schema';
import { mcpRefLookup } from './schema-ref-lookups';
import { RefLookup, resolveSchemaRefs } from './schema-ref-resolver';

/** Legacy (V2-recall) description for a top-level `body` property that has none; no space, as upstream. */
const MCP_BODY_DESCRIPTION = 'Request Body参数';

export interface ConversionOptions {
  /**
   * What a `$ref` that cannot be resolved (missing or foreign) becomes instead of failing the whole
   * schema; unset, the conversion throws its SchemaConversionError.
   */
  unresolved?(ref: string, error: SchemaConversionError): JsonSchema;
}

/**
 * An MCP tool's inputSchema as OpenAI function-call `parameters`: every `$defs` reference inlined (cycles
 * and depth pruned), `$defs`/`$schema` removed, `type: object` ensured at the root.
 */
export function convertMcpSchemaToFunctionCall(inputSchema: unknown, options: ConversionOptions = {}): JsonSchema {
  if (!isPlainObject(inputSchema)) throw new SchemaConversionError('inputSchema is not a JSON object');
  const resolved = resolveSchemaRefs(inputSchema, tolerant(mcpRefLookup(inputSchema), options.unresolved));
  if (!isPlainObject(resolved)) throw new SchemaConversionError('inputSchema does not resolve to a JSON object');
  const { type, $schema: _dialect, ...rest } = resolved;
  const parameters: JsonSchema = { type: type ?? 'object', ...rest };
  if (parameters.type === 'object' && !isPlainObject(parameters.properties)) parameters.properties = {};
  const properties = parameters.properties;
  if (isPlainObject(properties) && isPlainObject(properties.body) && !properties.body.description) {
    parameters.properties = { ...properties, body: { ...properties.body, description: MCP_BODY_DESCRIPTION } };
  }
  return parameters;
}

function tolerant(lookup: RefLookup, unresolved: ConversionOptions['unresolved']): RefLookup {
  if (!unresolved) return lookup;
  return (ref) => {
    try {
      return lookup(ref);
    } catch (error) {
      if (error instanceof SchemaConversionError) return unresolved(ref, error);
      throw error;
    }
  };
}
