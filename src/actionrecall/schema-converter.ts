import { isPlainObject, JsonSchema, SchemaConversionError } from './json-schema';
import { mcpRefLookup } from './schema-ref-lookups';
import { resolveSchemaRefs } from './schema-ref-resolver';

/** Legacy (V2-recall) description for a top-level `body` property that has none; no space, as upstream. */
const MCP_BODY_DESCRIPTION = 'Request Body参数';

/**
 * An MCP tool's inputSchema as OpenAI function-call `parameters`: every `$defs` reference inlined (cycles
 * and depth pruned), `$defs`/`$schema` removed, `type: object` ensured at the root.
 */
export function convertMcpSchemaToFunctionCall(inputSchema: unknown): JsonSchema {
  if (!isPlainObject(inputSchema)) throw new SchemaConversionError('inputSchema is not a JSON object');
  const resolved = resolveSchemaRefs(inputSchema, mcpRefLookup(inputSchema));
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
