import { EnvString, EnvUrl } from './env.decorators';
import { defineNamespace } from './config.loader';

/**
 * OpenTelemetry is on when an OTLP endpoint is configured. The SDK reads the other `OTEL_*` variables
 * (sampler, headers, batch delays) itself; these two are the ones the service decides on.
 */
class TracingEnv {
  @EnvUrl({ optional: true }) OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  @EnvString() OTEL_SERVICE_NAME = 'agent-retrieval';
}

export const tracingNamespace = defineNamespace('tracing', TracingEnv, (env) => ({
  enabled: env.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined,
  serviceName: env.OTEL_SERVICE_NAME,
}));
export type TracingConfig = ReturnType<typeof tracingNamespace.map>;
