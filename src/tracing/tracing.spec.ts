import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { inSpan, useInMemoryTracing } from '../../test/support/unit/in-memory-tracing';
import { traceToolCall } from './tool-span';
import { currentTraceIds } from './trace-ids';
import { startTracing } from './tracing';
import { upstreamSpanAttributes, withUpstreamName } from './upstream-span';

describe('tracing', () => {
  const exporter = useInMemoryTracing();

  it('starts nothing without OTEL_EXPORTER_OTLP_ENDPOINT (or with an invalid one, which loadConfig reports)', async () => {
    for (const env of [{}, { OTEL_EXPORTER_OTLP_ENDPOINT: '' }, { OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' }]) {
      const tracing = startTracing(env);
      expect(tracing.enabled).toBe(false);
      await expect(tracing.shutdown()).resolves.toBeUndefined();
    }
  });

  it('records one span per tool call with tool name, kn_id and outcome, parenting the calls made inside it', async () => {
    const value = await traceToolCall(
      'kn_search',
      async () => {
        trace.getTracer('spec').startSpan('upstream').end();
        return { isError: false };
      },
      () => ({ knId: 'clinic', outcome: 'ok' }),
    );
    expect(value).toEqual({ isError: false });
    const [upstream, tool] = exporter.getFinishedSpans();
    expect(tool.name).toBe('tools/call kn_search');
    expect(tool.kind).toBe(SpanKind.INTERNAL);
    expect(tool.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'kn_search',
      'agent_retrieval.kn_id': 'clinic',
      'agent_retrieval.outcome': 'ok',
    });
    expect(tool.status.code).toBe(SpanStatusCode.UNSET);
    expect(upstream.parentSpanContext?.spanId).toBe(tool.spanContext().spanId);
  });

  it('marks a failed tool call as an error with its code, and ends the span when the call throws', async () => {
    await traceToolCall(
      'query_object_instance',
      () => Promise.resolve('failed'),
      () => ({ outcome: 'error', errorCode: 'agentRetrieval.BadRequest.KnIdRequired' }),
    );
    await expect(
      traceToolCall(
        'kn_search',
        () => Promise.reject(new Error('boom')),
        () => ({ outcome: 'ok' }),
      ),
    ).rejects.toThrow('boom');
    const [failed, thrown] = exporter.getFinishedSpans();
    expect(failed.attributes).toMatchObject({
      'agent_retrieval.outcome': 'error',
      'agent_retrieval.error_code': 'agentRetrieval.BadRequest.KnIdRequired',
    });
    expect(failed.attributes).not.toHaveProperty(['agent_retrieval.kn_id']);
    expect(failed.status).toEqual({ code: SpanStatusCode.ERROR, message: 'agentRetrieval.BadRequest.KnIdRequired' });
    expect(thrown.status.code).toBe(SpanStatusCode.ERROR);
    expect(thrown.attributes).not.toHaveProperty(['agent_retrieval.outcome']);
  });

  it('names the upstream on the client span only for calls made inside withUpstreamName', () => {
    expect(withUpstreamName('bkn-backend', () => upstreamSpanAttributes())).toEqual({
      'agent_retrieval.upstream': 'bkn-backend',
    });
    expect(upstreamSpanAttributes()).toEqual({});
  });

  it('gives the active span ids for log lines and error details, and nothing outside a span', () => {
    expect(currentTraceIds()).toBeUndefined();
    const ids = inSpan(() => ({ ids: currentTraceIds(), active: trace.getActiveSpan()!.spanContext() }));
    expect(ids.ids).toEqual({ trace_id: ids.active.traceId, span_id: ids.active.spanId });
    expect(ids.ids?.trace_id).toMatch(/^[0-9a-f]{32}$/);
  });
});
