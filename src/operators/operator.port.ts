import { LayeredArguments, McpToolDetail, McpToolResult, ToolDetail, ToolExecutionResult } from './operator.types';

/**
 * Port to the operators an action can be bound to: toolbox tools (OpenAPI operations) and MCP tools.
 * Adapters: `EmbeddedOperators` (OpenAPI files + MCP servers from mcp.json, reached with the MCP SDK
 * client) and `KweaverOperators` (agent-operator-integration over HTTP); `OPERATOR_BACKEND` picks one.
 * Failures are AppExceptions: unknown box/tool/server → 404, unreachable upstream → 502, timeout → 504.
 */
export abstract class OperatorPort {
  /** Which adapter this is, for logs and metrics. */
  abstract readonly kind: string;

  abstract getToolDetail(boxId: string, toolId: string): Promise<ToolDetail>;

  /** The tools an MCP server offers (cached by the adapter). */
  abstract listMcpTools(mcpId: string): Promise<McpToolDetail[]>;

  /** One MCP tool's detail; unknown server → MCPServerNotFound, unknown tool → MCPToolNotFound. */
  abstract getMcpToolDetail(mcpId: string, toolName: string): Promise<McpToolDetail>;

  /**
   * `tools/call` with flat arguments; a tool-level failure is a result with `isError: true`, not an exception.
   * Arguments the tool's inputSchema forbids are a 400 before any call (ArgumentCheckedOperators).
   */
  abstract callMcpTool(mcpId: string, toolName: string, args: Record<string, unknown>): Promise<McpToolResult>;

  /** Sends the HTTP request a toolbox tool's operation describes. */
  abstract executeTool(boxId: string, toolId: string, args: LayeredArguments): Promise<ToolExecutionResult>;

  /** The URL a caller POSTs layered arguments to, to run a toolbox tool (the recalled action's api_url). */
  abstract toolProxyUrl(boxId: string, toolId: string): string;

  /** The MCP servers this adapter can list tools of without being told an id (chat offers their tools). */
  mcpServerIds(): string[] {
    return [];
  }

  /** What /health shows about the operators (no I/O: configured servers and connection states). */
  status(): Record<string, unknown> {
    return { adapter: this.kind };
  }

  /** Releases connections (MCP clients, child processes); called once on application shutdown. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
