import { startTracing } from './tracing';

/**
 * Imported first by main.ts: tracing has to start before http, express and undici are loaded for its
 * instrumentations to patch them. A no-op unless OTEL_EXPORTER_OTLP_ENDPOINT is set.
 */
export const tracing = startTracing(process.env);
