import type { ErrorBody } from '../common/errors/app.exception';
import { plainJson } from '../common/json/plain-json';
import { encodeToonFromJson } from '../common/response-format/toon';
import type { CapabilityDefinition } from './capability';

/** A result as text blocks for a model to read, and as the plain JSON copy beside them. */
export interface RenderedResult {
  blocks: string[];
  structured: Record<string, unknown>;
}

/**
 * What an MCP client or the chat model reads for a result: the capability's own words, or TOON (the
 * default) or JSON as `response_format` asks, beside the plain JSON copy structuredContent carries. The
 * copy is built in one walk (no text and re-parse), and the TOON encoder reads it directly.
 */
export function renderResult(
  definition: CapabilityDefinition,
  value: unknown,
  responseFormat: unknown,
): RenderedResult {
  const structured = plainJson(value ?? {}) as Record<string, unknown>;
  const { text } = definition;
  if (typeof text === 'object') return { blocks: text.result(structured), structured };
  const toon = text === 'toon' && responseFormat !== 'json';
  return { blocks: [toon ? encodeToonFromJson(structured) : JSON.stringify(structured)], structured };
}

/** The text of a failure: the error body as JSON (as REST would answer it), or the capability's own line. */
export function renderFailure(definition: CapabilityDefinition | undefined, error: unknown, body: ErrorBody): string {
  const text = definition?.text;
  return typeof text === 'object' ? text.failure(error, body) : JSON.stringify(body);
}
