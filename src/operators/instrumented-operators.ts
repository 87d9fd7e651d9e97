import { Counter, Histogram } from 'prom-client';
import { AppException } from '../common/errors/app.exception';
import { MetricsService } from '../metrics/metrics.service';
import { DelegatingOperators } from './delegating-operators';
import { OperatorPort } from './operator.port';
import { LayeredArguments, McpToolDetail, McpToolResult, ToolDetail, ToolExecutionResult } from './operator.types';

/** Outcome label for a finished upstream call, from the error's status class. */
export function outcomeOf(error: unknown): string {
  const status = error instanceof AppException ? error.status : 500;
  if (status === 404) return 'not_found';
  if (status === 504) return 'timeout';
  if (status === 502 || status === 503) return 'upstream_error';
  if (status < 500) return 'rejected';
  return 'error';
}

/** Wraps whichever adapter is configured so every operator call is counted and timed the same way. */
export class InstrumentedOperators extends DelegatingOperators {
  private readonly calls: Counter<string>;
  private readonly duration: Histogram<string>;

  constructor(inner: OperatorPort, metrics: MetricsService) {
    super(inner);
    this.calls = metrics.counter(
      'operator_upstream_calls_total',
      'Operator calls (tool detail, MCP tools, MCP call, toolbox execution) by adapter, operation and outcome',
      ['adapter', 'operation', 'outcome'],
    );
    this.duration = metrics.histogram(
      'operator_upstream_call_duration_seconds',
      'Operator call latency by adapter and operation',
      ['adapter', 'operation'],
      [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    );
  }

  override getToolDetail(boxId: string, toolId: string): Promise<ToolDetail> {
    return this.measure('tool_detail', () => this.inner.getToolDetail(boxId, toolId));
  }

  override listMcpTools(mcpId: string): Promise<McpToolDetail[]> {
    return this.measure('mcp_tools', () => this.inner.listMcpTools(mcpId));
  }

  override getMcpToolDetail(mcpId: string, toolName: string): Promise<McpToolDetail> {
    return this.measure('mcp_tool_detail', () => this.inner.getMcpToolDetail(mcpId, toolName));
  }

  override callMcpTool(mcpId: string, toolName: string, args: Record<string, unknown>): Promise<McpToolResult> {
    return this.measure('mcp_call', () => this.inner.callMcpTool(mcpId, toolName, args));
  }

  override executeTool(boxId: string, toolId: string, args: LayeredArguments): Promise<ToolExecutionResult> {
    return this.measure('tool_execute', () => this.inner.executeTool(boxId, toolId, args));
  }

  private async measure<T>(operation: string, call: () => Promise<T>): Promise<T> {
    const stop = this.duration.startTimer({ adapter: this.kind, operation });
    try {
      const result = await call();
      this.calls.inc({ adapter: this.kind, operation, outcome: 'ok' });
      return result;
    } catch (error) {
      this.calls.inc({ adapter: this.kind, operation, outcome: outcomeOf(error) });
      throw error;
    } finally {
      stop();
    }
  }
}
