import { isSpanContextValid, trace } from '@opentelemetry/api';

/** The W3C ids of the active span, as log fields and error details name them. */
export interface TraceIds {
  trace_id: string;
  span_id: string;
}

/** The ids of the span active here; undefined when tracing is off (the API's no-op has no span). */
export function currentTraceIds(): TraceIds | undefined {
  const spanContext = trace.getActiveSpan()?.spanContext();
  if (!spanContext || !isSpanContextValid(spanContext)) return undefined;
  return { trace_id: spanContext.traceId, span_id: spanContext.spanId };
}

export function currentTraceId(): string | undefined {
  return currentTraceIds()?.trace_id;
}
