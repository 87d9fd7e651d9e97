import { trace } from '@opentelemetry/api';
import { traceToolCall } from './tool-span';

// No tracer provider is registered in this file: tracing is off, as in a service without OTEL_EXPORTER_OTLP_ENDPOINT.
describe('traceToolCall without tracing', () => {
  it('runs the call with no span and still takes its facts once', async () => {
    const factsOf = jest.fn(() => ({ outcome: 'ok' as const }));
    let active: unknown = 'unset';
    const value = await traceToolCall(
      'kn_search',
      () => {
        active = trace.getActiveSpan();
        return Promise.resolve({ isError: false });
      },
      factsOf,
    );
    expect(value).toEqual({ isError: false });
    expect(active).toBeUndefined();
    expect(factsOf).toHaveBeenCalledTimes(1);
    expect(factsOf).toHaveBeenCalledWith({ isError: false });
  });

  it('passes a failure through without taking facts', async () => {
    const factsOf = jest.fn(() => ({ outcome: 'ok' as const }));
    await expect(traceToolCall('kn_search', () => Promise.reject(new Error('boom')), factsOf)).rejects.toThrow('boom');
    expect(factsOf).not.toHaveBeenCalled();
  });
});
