import { context, propagation, trace } from '@opentelemetry/api';
import { node, tracing } from '@opentelemetry/sdk-node';

/**
 * Registers a real tracer provider (with the async-local context manager) for one spec file and
 * returns the exporter that keeps its finished spans; cleared after each test, removed after all.
 */
export function useInMemoryTracing(): tracing.InMemorySpanExporter {
  const exporter = new tracing.InMemorySpanExporter();
  const provider = new node.NodeTracerProvider({ spanProcessors: [new tracing.SimpleSpanProcessor(exporter)] });
  beforeAll(() => provider.register());
  afterEach(() => exporter.reset());
  afterAll(async () => {
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  });
  return exporter;
}

/** Runs `call` inside a fresh active span, as a traced request would. */
export function inSpan<T>(call: () => T): T {
  return trace.getTracer('spec').startActiveSpan('spec', (span) => {
    try {
      return call();
    } finally {
      span.end();
    }
  });
}
