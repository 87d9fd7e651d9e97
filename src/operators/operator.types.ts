/** Operator model shared by the port, both adapters and the services (AOI field names, contracts §7.3). */

/** A toolbox tool's OpenAPI operation in the AOI shape the schema converter reads. */
export interface ToolApiSpec {
  parameters?: Record<string, unknown>[];
  request_body?: { content?: Record<string, { schema?: unknown }> };
  components?: { schemas?: Record<string, unknown> };
  [key: string]: unknown;
}

export interface ToolDetail {
  name: string;
  description: string;
  api_spec: ToolApiSpec;
}

export interface McpToolDetail {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** An MCP `tools/call` result, passed through as the server sent it. */
export interface McpToolResult {
  content: unknown[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  [key: string]: unknown;
}

/** Arguments of a toolbox call, split by where they travel in the HTTP request. */
export interface LayeredArguments {
  header?: Record<string, unknown>;
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/** What the tool's HTTP endpoint answered. */
export interface ToolExecutionResult {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}
