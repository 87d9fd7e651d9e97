import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { AppException } from '../../common/errors/app.exception';
import { UpstreamErrors } from '../../common/errors/error-codes';
import { McpToolResult } from '../operator.types';

/**
 * Maps a failed MCP exchange: a timeout → 504, a lost connection or transport failure → 502, and a
 * JSON-RPC error the server answered with → ServerAnsweredError, which callers turn into a tool result.
 * The library's message stays in the cause, which the error presenter logs with the request id, never
 * in the answer.
 */
export function mcpCallError(id: string, error: unknown): AppException {
  if (error instanceof AppException) return error;
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return new AppException(UpstreamErrors.Timeout, `MCP server ${id} did not answer in time`, { cause: error });
  }
  if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) {
    return new ServerAnsweredError(id, error);
  }
  return mcpUnreachable(id, undefined, error);
}

/** 502 for a server this service cannot reach; `state` says why in our own words (never library text). */
export function mcpUnreachable(id: string, state?: string, cause?: unknown): AppException {
  const details = `MCP server ${id} is unreachable${state ? ` (${state})` : ''}`;
  return new AppException(UpstreamErrors.Unreachable, details, { cause });
}

/** Failing to connect is never a tool error: a timeout → 504, anything else → 502. */
export function mcpConnectError(id: string, error: unknown): AppException {
  const mapped = mcpCallError(id, error);
  if (!(mapped instanceof ServerAnsweredError)) return mapped;
  return new AppException(UpstreamErrors.Unreachable, `MCP server ${id} failed to initialize`, { cause: error });
}

/** The server answered with a JSON-RPC error: the tool call failed, the transport did not. */
export class ServerAnsweredError extends AppException {
  constructor(
    readonly serverId: string,
    readonly mcpError: McpError,
  ) {
    super(UpstreamErrors.BadResponse, `MCP server ${serverId} answered with JSON-RPC error ${mcpError.code}`, {
      cause: mcpError,
    });
  }

  /** The same failure as a tool result, which is what an agent can act on (SPEC §6: 200 with isError). */
  toToolResult(): McpToolResult {
    return { content: [{ type: 'text', text: this.mcpError.message }], isError: true };
  }
}

/** Old servers answer `{toolResult}`; everything else is passed through with `content` guaranteed. */
export function normalizeToolResult(result: Record<string, unknown>): McpToolResult {
  if (Array.isArray(result.content)) return result as McpToolResult;
  if ('toolResult' in result) {
    return { content: [{ type: 'text', text: JSON.stringify(result.toolResult) }], isError: false };
  }
  return { ...result, content: [] };
}
