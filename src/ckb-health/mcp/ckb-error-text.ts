import { McpError } from '@modelcontextprotocol/sdk/types.js';

const MAX_ERROR_LENGTH = 300;

/**
 * A CKB error message safe to show in metadata and logs: URLs (which may carry credentials) are
 * replaced, and the text is cut to a bounded length.
 */
export function safeErrorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const cleaned = text
    .replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, '<url>')
    .replace(/\s+/g, ' ')
    .trim();
  return (cleaned || 'unknown error').slice(0, MAX_ERROR_LENGTH);
}

const MCP_ERROR_PREFIX = /^MCP error -?\d+: /;

/**
 * A JSON-RPC error from CKB as one `MCP error <code>: <detail>`: an SDK server sends its McpError's
 * message, already prefixed, and the SDK client prefixes it again on receipt.
 */
export function mcpErrorText(error: unknown): unknown {
  if (!(error instanceof McpError)) return error;
  let detail = error.message;
  while (MCP_ERROR_PREFIX.test(detail)) detail = detail.replace(MCP_ERROR_PREFIX, '');
  return `MCP error ${error.code}: ${detail}`;
}

/** A tool result's content: the JSON in its first text block when it parses, else the joined text. */
export function toolResultValue(content: unknown): unknown {
  if (!Array.isArray(content)) return undefined;
  const texts = content
    .filter(
      (block): block is { type: 'text'; text: string } => block?.type === 'text' && typeof block.text === 'string',
    )
    .map((block) => block.text);
  if (texts.length === 0) return undefined;
  try {
    return JSON.parse(texts[0]) as unknown;
  } catch {
    return texts.join('\n');
  }
}
