import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** An MCP server started as a child process and spoken to over its stdin/stdout. */
export interface StdioMcpTarget {
  kind: 'stdio';
  command: string;
  args: string[];
  /** Inherited from this process when absent. */
  cwd?: string;
  /** Variables added to the SDK's safe defaults; nothing else of our environment reaches the child. */
  env?: Record<string, string>;
}

/** An MCP server behind a Streamable HTTP endpoint. */
export interface HttpMcpTarget {
  kind: 'http';
  url: string;
  /** Sent with every request (e.g. the server's own API key). */
  headers?: Record<string, string>;
}

export type McpTarget = StdioMcpTarget | HttpMcpTarget;

export interface McpTransportOptions {
  /** Receives what a stdio server writes to stderr; without it, stderr is discarded. */
  onStderr?: (text: string) => void;
}

/**
 * The client transport for one MCP server (SDK 1.x). A stdio child gets only the SDK's default
 * environment (HOME, LOGNAME, PATH, SHELL, TERM, USER) plus `env`: our tokens and keys never reach it.
 */
export function createMcpTransport(target: McpTarget, options: McpTransportOptions = {}): Transport {
  if (target.kind === 'http') {
    const init = target.headers ? { requestInit: { headers: target.headers } } : undefined;
    return new StreamableHTTPClientTransport(new URL(target.url), init);
  }
  const { onStderr } = options;
  const transport = new StdioClientTransport({
    command: target.command,
    args: target.args,
    env: target.env,
    cwd: target.cwd,
    stderr: onStderr ? 'pipe' : 'ignore',
  });
  transport.stderr?.on('data', (chunk: Buffer) => onStderr?.(chunk.toString('utf8')));
  return transport;
}
