import { asObject, isPlainObject, JsonSchema, ownValue, quote, SchemaConversionError } from './json-schema';
import { openApiRefLookup } from './schema-ref-lookups';
import { RefLookup, resolveSchemaRefs } from './schema-ref-resolver';

export const PARAMETER_LOCATIONS = ['header', 'path', 'query', 'body'] as const;
export type ParameterLocation = (typeof PARAMETER_LOCATIONS)[number];

/** Location descriptions of the layered (V2-recall) format, verbatim for compatibility. */
const LOCATION_DESCRIPTIONS: Record<ParameterLocation, string> = {
  header: 'HTTP Header 参数',
  path: 'URL Path 参数',
  query: 'URL Query 参数',
  body: 'Request Body 参数',
};
const BODY_PLACEHOLDER_DESCRIPTION = '请求体参数';

/** Name of the single body property used when the request body is not an object. */
export const WHOLE_BODY_PROPERTY = 'request_body';

interface Location {
  properties: [string, JsonSchema][];
  required: string[];
}

/**
 * A tool's AOI api_spec (`parameters[]`, `request_body.content["application/json"].schema`,
 * `components.schemas`) as a layered `{header, path, query, body}` function-call schema (contracts §3.4).
 * A name used in two locations is an error: fixed parameters are routed by name.
 */
export function convertToolSchemaToFunctionCall(apiSpec: unknown): JsonSchema {
  const spec = asObject(apiSpec);
  const lookup = openApiRefLookup(spec);
  const locations = Object.fromEntries(
    PARAMETER_LOCATIONS.map((location) => [location, { properties: [], required: [] } as Location]),
  ) as Record<ParameterLocation, Location>;
  const seen = new Map<string, string>();
  for (const parameter of Array.isArray(spec.parameters) ? spec.parameters : []) {
    addParameter(parameter, lookup, locations, seen);
  }
  addBody(requestBodySchema(spec), lookup, locations.body, seen);
  return assemble(locations);
}

function claimName(seen: Map<string, string>, name: string, location: string): boolean {
  const previous = seen.get(name);
  if (previous !== undefined && previous !== location) {
    throw new SchemaConversionError(
      `parameter name ${quote(name)} appears in two locations (${previous} and ${location}); the tool cannot be recalled`,
    );
  }
  seen.set(name, location);
  return previous === undefined;
}

function addParameter(
  parameter: unknown,
  lookup: RefLookup,
  locations: Record<ParameterLocation, Location>,
  seen: Map<string, string>,
): void {
  if (!isPlainObject(parameter) || typeof parameter.name !== 'string' || typeof parameter.in !== 'string') return;
  const { name } = parameter;
  const location = parameter.in;
  if (!(location === 'header' || location === 'path' || location === 'query')) return;
  if (!claimName(seen, name, location)) return;
  const schema = asObject(resolveSchemaRefs(parameter.schema ?? { type: 'string' }, lookup));
  const description = typeof parameter.description === 'string' ? parameter.description : undefined;
  locations[location].properties.push([name, buildPropertyDefinition(schema, description)]);
  if (parameter.required === true || location === 'path') locations[location].required.push(name);
}

export function requestBodySchema(spec: JsonSchema): unknown {
  const body = asObject(spec.request_body ?? spec.requestBody);
  return asObject(ownValue(asObject(body.content), 'application/json')).schema;
}

function addBody(schema: unknown, lookup: RefLookup, body: Location, seen: Map<string, string>): void {
  if (schema === undefined) return;
  const resolved = asObject(resolveSchemaRefs(schema, lookup));
  if (!isPlainObject(resolved.properties)) {
    body.properties.push([WHOLE_BODY_PROPERTY, wholeBodyDefinition(resolved)]);
    return;
  }
  for (const [name, property] of Object.entries(resolved.properties)) {
    claimName(seen, name, 'body');
    body.properties.push([name, buildPropertyDefinition(asObject(property))]);
  }
  const names = new Set(body.properties.map(([name]) => name));
  for (const name of Array.isArray(resolved.required) ? resolved.required : []) {
    if (typeof name === 'string' && names.has(name)) body.required.push(name);
  }
}

/** A body that is not an object (an array, a string) cannot be split into properties: it travels whole. */
function wholeBodyDefinition(resolved: JsonSchema): JsonSchema {
  const definition = buildPropertyDefinition(resolved);
  if (resolved.type === undefined) definition.type = 'object';
  if (!definition.description) definition.description = BODY_PLACEHOLDER_DESCRIPTION;
  return definition;
}

/** One property of the function definition; a parameter's own description wins over its schema's. */
export function buildPropertyDefinition(schema: JsonSchema, parameterDescription?: string): JsonSchema {
  const definition: JsonSchema = { type: schema.type ?? 'string' };
  const description = parameterDescription || schema.description;
  if (typeof description === 'string' && description !== '') definition.description = description;
  if (Array.isArray(schema.enum)) definition.enum = schema.enum;
  if (isPlainObject(schema.properties)) {
    definition.type = 'object';
    definition.properties = schema.properties;
    if (Array.isArray(schema.required) && schema.required.length > 0) definition.required = schema.required;
  }
  if (definition.type === 'array' && schema.items !== undefined) definition.items = schema.items;
  return definition;
}

function assemble(locations: Record<ParameterLocation, Location>): JsonSchema {
  const present = PARAMETER_LOCATIONS.filter((location) => locations[location].properties.length > 0);
  const shown: ParameterLocation[] = present.length > 0 ? present : ['body'];
  const properties = shown.map((location) => {
    const { properties: entries, required } = locations[location];
    const node: JsonSchema = {
      type: 'object',
      description: LOCATION_DESCRIPTIONS[location],
      properties: Object.fromEntries(entries),
    };
    if (required.length > 0) node.required = required;
    return [location, node] as const;
  });
  return { type: 'object', properties: Object.fromEntries(properties) };
}
