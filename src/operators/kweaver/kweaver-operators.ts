import { forwardHeaders } from '../../common/auth/forward-headers';
import { AppException } from '../../common/errors/app.exception';
import { ErrorDefinition, PublicErrors, UpstreamErrors } from '../../common/errors/error-codes';
import { defaultUpstreamError, UpstreamClient } from '../../common/http/upstream-client';
import { pathSegment } from '../../common/http/upstream-url';
import { OperatorsConfig, UpstreamConfig } from '../../config';
import { OperatorErrors } from '../operator.errors';
import { OperatorPort } from '../operator.port';
import { LayeredArguments, McpToolDetail, McpToolResult, ToolDetail, ToolExecutionResult } from '../operator.types';

const AOI_PREFIX = '/api/agent-operator-integration/internal-v1';

type Json = Record<string, unknown>;
const asJson = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};

const toolProxyPath = (boxId: string, toolId: string): string =>
  `${AOI_PREFIX}/tool-box/${pathSegment('box_id', boxId)}/proxy/${pathSegment('tool_id', toolId)}`;

/** AOI's 404 becomes the caller's 404 for the resource asked for; every other failure is a 502. */
function aoiError(status: number, body: unknown, name: string): Error {
  if (status === 404) return new AppException(PublicErrors.NotFound, `${name} answered HTTP 404`);
  return defaultUpstreamError(status, body, name);
}

/** KWeaver agent-operator-integration over HTTP (contracts §7.3), with the caller's account headers. */
export class KweaverOperators extends OperatorPort {
  readonly kind = 'kweaver';
  private readonly aoi: UpstreamClient;

  constructor(
    upstream: UpstreamConfig,
    private readonly config: OperatorsConfig,
  ) {
    super();
    this.aoi = new UpstreamClient('agent-operator-integration', upstream.operatorIntegration, aoiError);
  }

  async getToolDetail(boxId: string, toolId: string): Promise<ToolDetail> {
    const path = `${AOI_PREFIX}/tool-box/${pathSegment('box_id', boxId)}/tool/${pathSegment('tool_id', toolId)}`;
    const body = await this.call(OperatorErrors.ToolboxToolNotFound, `tool ${boxId}/${toolId}`, () =>
      this.aoi.request<Json>({ method: 'GET', path, headers: forwardHeaders() }),
    );
    return {
      name: typeof body.name === 'string' ? body.name : toolId,
      description: typeof body.description === 'string' ? body.description : '',
      api_spec: asJson(asJson(body.metadata).api_spec),
    };
  }

  async listMcpTools(mcpId: string): Promise<McpToolDetail[]> {
    const path = `${AOI_PREFIX}/mcp/proxy/${pathSegment('mcp_id', mcpId)}/tools`;
    const body = await this.call(OperatorErrors.McpServerNotFound, `MCP server ${mcpId}`, () =>
      this.aoi.request<Json>({ method: 'GET', path, headers: forwardHeaders() }),
    );
    const tools = Array.isArray(body.tools) ? body.tools : [];
    return tools
      .map(asJson)
      .filter((tool) => typeof tool.name === 'string')
      .map((tool) => ({
        name: tool.name as string,
        description: typeof tool.description === 'string' ? tool.description : '',
        inputSchema: asJson(tool.inputSchema),
        ...(tool.annotations ? { annotations: asJson(tool.annotations) } : {}),
      }));
  }

  async getMcpToolDetail(mcpId: string, toolName: string): Promise<McpToolDetail> {
    const tool = (await this.listMcpTools(mcpId)).find((candidate) => candidate.name === toolName);
    if (!tool)
      throw new AppException(
        OperatorErrors.McpToolNotFound,
        `MCP server ${mcpId} has no tool named ${JSON.stringify(toolName.slice(0, 128))}`,
      );
    return tool;
  }

  async callMcpTool(mcpId: string, toolName: string, args: Record<string, unknown>): Promise<McpToolResult> {
    const path = `${AOI_PREFIX}/mcp/proxy/${pathSegment('mcp_id', mcpId)}/tool/call`;
    const body = await this.call(OperatorErrors.McpServerNotFound, `MCP server ${mcpId}`, () =>
      this.aoi.request<unknown>({
        method: 'POST',
        path,
        headers: forwardHeaders(),
        body: { tool_name: toolName, parameters: args },
        timeoutMs: this.config.mcpCallTimeoutMs,
      }),
    );
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new AppException(
        UpstreamErrors.BadResponse,
        'agent-operator-integration returned a tool result that is not an object',
      );
    }
    const result = body as Json;
    return { ...result, content: Array.isArray(result.content) ? result.content : [] };
  }

  async executeTool(boxId: string, toolId: string, args: LayeredArguments): Promise<ToolExecutionResult> {
    const path = toolProxyPath(boxId, toolId);
    const body = await this.call(OperatorErrors.ToolboxToolNotFound, `tool ${boxId}/${toolId}`, () =>
      this.aoi.request<unknown>({
        method: 'POST',
        path,
        headers: forwardHeaders(),
        body: args,
        timeoutMs: this.config.toolboxTimeoutMs,
      }),
    );
    // AOI wraps the tool's answer as {status_code, headers, body}; anything else is the answer itself.
    const envelope = asJson(body);
    if (typeof envelope.status_code === 'number') {
      const headers = Object.fromEntries(
        Object.entries(asJson(envelope.headers)).map(([name, value]) => [name, String(value)]),
      );
      return { status: envelope.status_code, headers, body: envelope.body ?? null };
    }
    return { status: 200, headers: {}, body: body ?? null };
  }

  toolProxyUrl(boxId: string, toolId: string): string {
    return this.aoi.url(toolProxyPath(boxId, toolId));
  }

  private async call<T>(notFound: ErrorDefinition, what: string, request: () => Promise<{ body: T }>): Promise<T> {
    try {
      return (await request()).body;
    } catch (error) {
      if (error instanceof AppException && error.definition === PublicErrors.NotFound) {
        throw new AppException(notFound, `${what} is not known to agent-operator-integration`);
      }
      throw error;
    }
  }
}
