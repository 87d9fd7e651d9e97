import { context, propagation, ProxyTracerProvider, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

const tracer = trace.getTracer('agent-retrieval');

/** What a tool span records once the call is over: never the arguments, which may carry secrets or data. */
export interface ToolCallFacts {
  knId?: string;
  outcome: 'ok' | 'error';
  errorCode?: string;
}

/**
 * Runs one MCP tool call in its own span, active while the call runs so upstream calls nest under it.
 * Named `tools/call <tool>` with the MCP semantic-convention attributes, plus kn_id and outcome. A W3C
 * `traceparent` (and `tracestate`) in the request's `_meta` makes the span a child of the caller's span:
 * an agent's trace continues here even when its HTTP client cannot set headers.
 */
export function traceToolCall<T>(
  tool: string,
  call: () => Promise<T>,
  factsOf: (value: T) => ToolCallFacts,
  meta?: Record<string, unknown>,
): Promise<T> {
  // No tracer registered (tracing off): no span to start, the facts are still taken (they feed the metrics).
  if (!tracerRegistered()) {
    return call().then((value) => {
      factsOf(value);
      return value;
    });
  }
  const attributes = { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': tool };
  const options = { kind: SpanKind.INTERNAL, attributes };
  return tracer.startActiveSpan(`tools/call ${tool}`, options, callerContext(meta), async (span) => {
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

/** The active context, or the caller's when `_meta` carries a W3C trace context (other keys are ignored). */
function callerContext(meta: Record<string, unknown> | undefined) {
  const active = context.active();
  const traceparent = meta?.traceparent;
  if (typeof traceparent !== 'string' || traceparent.length > 256) return active;
  const tracestate = typeof meta?.tracestate === 'string' ? meta.tracestate.slice(0, 512) : undefined;
  return propagation.extract(active, { traceparent, ...(tracestate ? { tracestate } : {}) });
}

/** Whether an OpenTelemetry SDK registered a tracer provider; the API's proxy has no delegate until one does. */
function tracerRegistered(): boolean {
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegateTracer('agent-retrieval') !== undefined;
}
