import { OperatorPort } from './operator.port';
import { LayeredArguments, McpToolDetail, McpToolResult, ToolDetail, ToolExecutionResult } from './operator.types';

/**
 * An OperatorPort that hands every call to the adapter it wraps: the base of the wrappers that add one
 * concern around every adapter (metrics, argument checks), each overriding only the calls it concerns.
 */
export abstract class DelegatingOperators extends OperatorPort {
  readonly kind: string;

  constructor(protected readonly inner: OperatorPort) {
    super();
    this.kind = inner.kind;
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

  callMcpTool(mcpId: string, toolName: string, args: Record<string, unknown>): Promise<McpToolResult> {
    return this.inner.callMcpTool(mcpId, toolName, args);
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
