import { EnvString, EnvUrl, Describe } from './env.decorators';
import { defineNamespace } from './config.loader';

/**
 * OpenTelemetry is on when an OTLP endpoint is configured. The SDK reads the other `OTEL_*` variables
 * (sampler, headers, batch delays) itself; these two are the ones the service decides on.
 */
class TracingEnv {
  @Describe(
    'Turns [tracing](operations.md#tracing) on: base URL of an OTLP/HTTP collector (`http://otel-collector:4318`); spans go to `<url>/v1/traces` as JSON. Unset: no OpenTelemetry SDK is loaded',
  )
  @EnvUrl({ optional: true })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  @Describe('`service.name` of the exported spans')
  @EnvString()
  OTEL_SERVICE_NAME = 'agent-retrieval';
}

export const tracingNamespace = defineNamespace('tracing', TracingEnv, (env) => ({
  enabled: env.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined,
  serviceName: env.OTEL_SERVICE_NAME,
}));
export type TracingConfig = ReturnType<typeof tracingNamespace.map>;
