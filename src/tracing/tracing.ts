import type { ClientRequest, IncomingMessage } from 'node:http';
import type { Span } from '@opentelemetry/api';
import type * as ExporterModule from '@opentelemetry/exporter-trace-otlp-http';
import type * as ExpressModule from '@opentelemetry/instrumentation-express';
import type * as HttpModule from '@opentelemetry/instrumentation-http';
import type * as UndiciModule from '@opentelemetry/instrumentation-undici';
import type * as SdkModule from '@opentelemetry/sdk-node';
import { routeTemplate } from '../common/http/route-table';
import { ConfigError, loadNamespace } from '../config/config.loader';
import { TracingConfig, tracingNamespace } from '../config/tracing.config';
import { upstreamSpanAttributes } from './upstream-span';

/** The started OpenTelemetry SDK, or the stand-in that does nothing when tracing is off. */
export interface Tracing {
  readonly enabled: boolean;
  /** Exports the spans still buffered and stops the SDK; call before the process exits. */
  shutdown(): Promise<void>;
}

const DISABLED: Tracing = { enabled: false, shutdown: () => Promise.resolve() };

/** Probes and scrapes would drown the traces that matter; pino-http skips the same paths. */
const UNTRACED_PATHS = /^\/(health|metrics)(\/|\?|$)/;

/** No header is ever copied onto a span: Authorization, X-Weknora-Api-Key and cookies carry secrets. */
const NO_HEADERS = { requestHeaders: [], responseHeaders: [] };

/**
 * Starts OpenTelemetry when `OTEL_EXPORTER_OTLP_ENDPOINT` is set: spans for incoming HTTP (named after
 * the Express route template) and outgoing fetch/undici and http calls, exported as OTLP/HTTP JSON.
 * Must run before http, express or undici are first required: the instrumentations patch them as they
 * load. Without the variable no SDK module is loaded at all, and `@opentelemetry/api` (our own spans
 * and log fields) stays a no-op.
 */
export function startTracing(env: Record<string, string | undefined> = process.env): Tracing {
  const config = tracingConfig(env);
  if (!config?.enabled) return DISABLED;
  const sdk = createSdk(config, loadSdkModules());
  sdk.start();
  return { enabled: true, shutdown: () => sdk.shutdown() };
}

/** An invalid value starts nothing here: loadConfig reports it, naming the variable, and stops the boot. */
function tracingConfig(env: Record<string, string | undefined>): TracingConfig | undefined {
  try {
    return loadNamespace(tracingNamespace, env);
  } catch (error) {
    if (error instanceof ConfigError) return undefined;
    throw error;
  }
}

function createSdk(config: TracingConfig, modules: SdkModules): SdkModule.NodeSDK {
  return new modules.NodeSDK({
    serviceName: config.serviceName,
    // The exporter reads the endpoint, headers and timeout from the OTEL_EXPORTER_OTLP_* variables.
    traceExporter: new modules.OTLPTraceExporter(),
    // Traces only: metrics stay on /metrics (Prometheus) and logs on stdout.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new modules.HttpInstrumentation({
        headersToSpanAttributes: { client: NO_HEADERS, server: NO_HEADERS },
        // Outbound calls are traced as part of a request; background probes would each be a lone trace.
        requireParentforOutgoingSpans: true,
        ignoreIncomingRequestHook: (request: IncomingMessage) => UNTRACED_PATHS.test(request.url ?? ''),
        applyCustomAttributesOnSpan: nameAfterRoute,
      }),
      // Middleware spans (body parsers and the other app.use layers) would outnumber the useful ones.
      new modules.ExpressInstrumentation({ ignoreLayersType: [modules.ExpressLayerType.MIDDLEWARE] }),
      new modules.UndiciInstrumentation({
        headersToSpanAttributes: NO_HEADERS,
        requireParentforSpans: true,
        startSpanHook: upstreamSpanAttributes,
      }),
    ],
  });
}

/**
 * The server span is named after the route Express matched, as metrics and logs name it: the Express
 * instrumentation would report Nest's catch-all not-found handler as the route `/`.
 */
function nameAfterRoute(span: Span, request: IncomingMessage | ClientRequest): void {
  // The hook also sees outgoing requests (a ClientRequest has no httpVersion); their spans keep their names.
  if (!('httpVersion' in request)) return;
  const route = routeTemplate(request);
  span.setAttribute('http.route', route);
  span.updateName(route === 'unmatched' ? (request.method ?? 'HTTP') : `${request.method} ${route}`);
}

interface SdkModules {
  NodeSDK: typeof SdkModule.NodeSDK;
  OTLPTraceExporter: typeof ExporterModule.OTLPTraceExporter;
  HttpInstrumentation: typeof HttpModule.HttpInstrumentation;
  ExpressInstrumentation: typeof ExpressModule.ExpressInstrumentation;
  ExpressLayerType: typeof ExpressModule.ExpressLayerType;
  UndiciInstrumentation: typeof UndiciModule.UndiciInstrumentation;
}

/** Required here, not imported at the top, so a service without tracing never loads the SDK. */
function loadSdkModules(): SdkModules {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const express = require('@opentelemetry/instrumentation-express') as typeof ExpressModule;
  return {
    NodeSDK: (require('@opentelemetry/sdk-node') as typeof SdkModule).NodeSDK,
    OTLPTraceExporter: (require('@opentelemetry/exporter-trace-otlp-http') as typeof ExporterModule).OTLPTraceExporter,
    HttpInstrumentation: (require('@opentelemetry/instrumentation-http') as typeof HttpModule).HttpInstrumentation,
    ExpressInstrumentation: express.ExpressInstrumentation,
    ExpressLayerType: express.ExpressLayerType,
    UndiciInstrumentation: (require('@opentelemetry/instrumentation-undici') as typeof UndiciModule)
      .UndiciInstrumentation,
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}
