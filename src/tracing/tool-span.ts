import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

const tracer = trace.getTracer('agent-retrieval');

/** What a tool span records once the call is over: never the arguments, which may carry secrets or data. */
export interface ToolCallFacts {
  knId?: string;
  outcome: 'ok' | 'error';
  errorCode?: string;
}

/**
 * Runs one MCP tool call in its own span, active while the call runs so upstream calls nest under it.
 * Named `tools/call <tool>` with the MCP semantic-convention attributes, plus kn_id and outcome.
 */
export function traceToolCall<T>(
  tool: string,
  call: () => Promise<T>,
  factsOf: (value: T) => ToolCallFacts,
): Promise<T> {
  const attributes = { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': tool };
  return tracer.startActiveSpan(`tools/call ${tool}`, { kind: SpanKind.INTERNAL, attributes }, async (span) => {
    try {
      const value = await call();
      const facts = factsOf(value);
      span.setAttribute('agent_retrieval.outcome', facts.outcome);
      if (facts.knId) span.setAttribute('agent_retrieval.kn_id', facts.knId);
      if (facts.errorCode) span.setAttribute('agent_retrieval.error_code', facts.errorCode);
      if (facts.outcome === 'error') span.setStatus({ code: SpanStatusCode.ERROR, message: facts.errorCode });
      return value;
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}
