import { AppException } from '../common/errors/app.exception';
import { OperatorErrors } from './operator.errors';
import { OperatorPort } from './operator.port';
import { LayeredArguments, McpToolDetail, McpToolResult, ToolDetail, ToolExecutionResult } from './operator.types';
import { ToolSchemaCache } from './tool-schema-cache';

/**
 * Wraps whichever adapter is configured so that every MCP tool call — the proxy route, execute_action,
 * chat and the tool API alike — is checked against the tool's `inputSchema` before it is sent: arguments
 * the schema forbids are a 400 naming each field (seed 000 §7.3, 参数校验失败 → 400) and never reach the server.
 */
export class ArgumentCheckedOperators extends OperatorPort {
  readonly kind: string;
  private readonly schemas = new ToolSchemaCache();

  constructor(private readonly inner: OperatorPort) {
    super();
    this.kind = inner.kind;
  }

  async callMcpTool(mcpId: string, toolName: string, args: Record<string, unknown>): Promise<McpToolResult> {
    const tool = await this.inner.getMcpToolDetail(mcpId, toolName);
    const violations = this.schemas.violations(mcpId, tool, args);
    if (violations.length > 0) throw new AppException(OperatorErrors.InvalidToolArguments, violations);
    return this.inner.callMcpTool(mcpId, toolName, args);
  }

  getToolDetail(boxId: string, toolId: string): Promise<ToolDetail> {
    return this.inner.getToolDetail(boxId, toolId);
  }

  listMcpTools(mcpId: string): Promise<McpToolDetail[]> {
    return this.inner.listMcpTools(mcpId);
  }

  getMcpToolDetail(mcpId: string, toolName: string): Promise<McpToolDetail> {
    return this.inner.getMcpToolDetail(mcpId, toolName);
  }

  executeTool(boxId: string, toolId: string, args: LayeredArguments): Promise<ToolExecutionResult> {
    return this.inner.executeTool(boxId, toolId, args);
  }

  toolProxyUrl(boxId: string, toolId: string): string {
    return this.inner.toolProxyUrl(boxId, toolId);
  }

  override mcpServerIds(): string[] {
    return this.inner.mcpServerIds();
  }

  override status(): Record<string, unknown> {
    return this.inner.status();
  }

  override close(): Promise<void> {
    return this.inner.close();
  }
}
