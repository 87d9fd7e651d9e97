import { asObject, isPlainObject, JsonSchema } from './json-schema';
import { ParameterLocation } from './layered-tool-schema';

export type LayeredParams = Record<ParameterLocation, Record<string, unknown>>;

// Names that only make sense as HTTP headers when the api_spec does not say where they go (contracts §3.4).
const HEADER_NAME = /^(x-|authorization|content-type)/i;

/**
 * An action's bound parameters split into `{header, path, query, body}`: by the api_spec parameter's
 * `in` when the name is declared there, else headers for header-like names and body for the rest.
 */
export function mapFixedParams(parameters: Record<string, unknown>, apiSpec: unknown): LayeredParams {
  const declared = new Map<string, ParameterLocation>();
  const specParameters = asObject(apiSpec as JsonSchema).parameters;
  for (const parameter of Array.isArray(specParameters) ? specParameters : []) {
    if (!isPlainObject(parameter) || typeof parameter.name !== 'string') continue;
    const location = parameter.in;
    if ((location === 'header' || location === 'path' || location === 'query') && !declared.has(parameter.name)) {
      declared.set(parameter.name, location);
    }
  }
  const buckets: Record<ParameterLocation, [string, unknown][]> = { header: [], path: [], query: [], body: [] };
  for (const [name, value] of Object.entries(parameters)) {
    const location = declared.get(name) ?? (HEADER_NAME.test(name) ? 'header' : 'body');
    buckets[location].push([name, value]);
  }
  return {
    header: Object.fromEntries(buckets.header),
    path: Object.fromEntries(buckets.path),
    query: Object.fromEntries(buckets.query),
    body: Object.fromEntries(buckets.body),
  };
}
