import { AppException } from '../common/errors/app.exception';
import { DelegatingOperators } from './delegating-operators';
import { OperatorErrors } from './operator.errors';
import { McpToolResult } from './operator.types';
import { ToolSchemaCache } from './tool-schema-cache';

/**
 * Wraps whichever adapter is configured so that every MCP tool call — the proxy route, execute_action,
 * chat and the tool API alike — is checked against the tool's `inputSchema` before it is sent: arguments
 * the schema forbids are a 400 naming each field (seed 000 §7.3, 参数校验失败 → 400) and never reach the server.
 */
export class ArgumentCheckedOperators extends DelegatingOperators {
  private readonly schemas = new ToolSchemaCache();

  override async callMcpTool(mcpId: string, toolName: string, args: Record<string, unknown>): Promise<McpToolResult> {
    const tool = await this.inner.getMcpToolDetail(mcpId, toolName);
    const violations = this.schemas.violations(mcpId, tool, args);
    if (violations.length > 0) throw new AppException(OperatorErrors.InvalidToolArguments, violations);
    return this.inner.callMcpTool(mcpId, toolName, args);
  }
}
