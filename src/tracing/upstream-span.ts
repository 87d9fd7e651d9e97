import { Attributes, context, createContextKey } from '@opentelemetry/api';

const UPSTREAM_NAME = createContextKey('agent-retrieval.upstream');

/** Span attribute naming the configured upstream (`bkn-backend`, `ontology-query`, …) a client span went to. */
export const UPSTREAM_ATTRIBUTE = 'agent_retrieval.upstream';

/** Runs an outbound call with the upstream's name in context, where the fetch client span picks it up. */
export function withUpstreamName<T>(name: string, call: () => T): T {
  return context.with(context.active().setValue(UPSTREAM_NAME, name), call);
}

/** The undici instrumentation's start hook: adds the upstream name to the client span it opens. */
export function upstreamSpanAttributes(): Attributes {
  const name = context.active().getValue(UPSTREAM_NAME);
  return typeof name === 'string' ? { [UPSTREAM_ATTRIBUTE]: name } : {};
}
