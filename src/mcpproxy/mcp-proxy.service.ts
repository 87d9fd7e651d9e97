import { Injectable } from '@nestjs/common';
import { AppException } from '../common/errors/app.exception';
import { CallMetrics, MetricsService } from '../metrics/metrics.service';
import { OperatorErrors } from '../operators/operator.errors';
import { outcomeOf } from '../operators/instrumented-operators';
import { OperatorPort } from '../operators/operator.port';
import { McpToolResult } from '../operators/operator.types';

// Ids from the URL only become metric labels once the server knew them, so junk paths cannot explode cardinality.
const UNKNOWN_LABEL = '_unknown_';

/** Flat tool arguments: a JSON object; an absent body means no arguments. */
export function toolArguments(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new AppException(OperatorErrors.InvalidToolArguments, 'request body must be a JSON object of tool arguments');
  }
  return body as Record<string, unknown>;
}

/** The flat-argument MCP tool call behind a recalled action's api_url (SPEC §6, seed 000 §4.2). */
@Injectable()
export class McpProxyService {
  private readonly calls: CallMetrics;

  constructor(
    private readonly operators: OperatorPort,
    metrics: MetricsService,
  ) {
    this.calls = metrics.calls({
      total: 'mcp_proxy_calls_total',
      duration: 'mcp_proxy_call_duration_seconds',
      what: 'MCP proxy calls',
      labels: ['mcp_id', 'tool', 'outcome'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 3, 5, 10, 30],
    });
  }

  async call(mcpId: string, toolName: string, body: unknown): Promise<McpToolResult> {
    const started = process.hrtime.bigint();
    let labels = { mcp_id: UNKNOWN_LABEL, tool: UNKNOWN_LABEL, outcome: 'rejected' };
    try {
      const result = await this.operators.callMcpTool(mcpId, toolName, toolArguments(body));
      labels = { mcp_id: mcpId, tool: toolName, outcome: result.isError === true ? 'tool_error' : 'ok' };
      return result;
    } catch (error) {
      const outcome = outcomeOf(error);
      const known = outcome === 'timeout' || outcome === 'upstream_error';
      labels = known ? { mcp_id: mcpId, tool: toolName, outcome } : { ...labels, outcome };
      throw error;
    } finally {
      this.calls.record(labels, Number(process.hrtime.bigint() - started) / 1e9);
    }
  }
}
