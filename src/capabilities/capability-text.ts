import type { ErrorBody } from '../common/errors/app.exception';
import { encodeToonFromJson } from '../common/response-format/toon';
import type { CapabilityDefinition } from './capability';

/** A result as text blocks for a model to read, and as the plain JSON copy beside them. */
export interface RenderedResult {
  blocks: string[];
  structured: Record<string, unknown>;
}

/**
 * What an MCP client or the chat model reads for a result: the capability's own words, or TOON (the
 * default) or JSON as `response_format` asks. One JSON round-trip gives both the JSON text and the plain
 * copy the TOON encoder and structuredContent need, so a large result is serialised once.
 */
export function renderResult(
  definition: CapabilityDefinition,
  value: unknown,
  responseFormat: unknown,
): RenderedResult {
  const json = JSON.stringify(value ?? {});
  const structured = JSON.parse(json) as Record<string, unknown>;
  const { text } = definition;
  if (typeof text === 'object') return { blocks: text.result(structured), structured };
  const toon = text === 'toon' && responseFormat !== 'json';
  return { blocks: [toon ? encodeToonFromJson(structured) : json], structured };
}

/** The text of a failure: the error body as JSON (as REST would answer it), or the capability's own line. */
export function renderFailure(definition: CapabilityDefinition | undefined, error: unknown, body: ErrorBody): string {
  const text = definition?.text;
  return typeof text === 'object' ? text.failure(error, body) : JSON.stringify(body);
}
