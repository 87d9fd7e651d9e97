import * as path from 'node:path';
import { HttpPeer, sendJson } from './support/http-peer';
import { connectV1, MCP_PATH, ToolCallResult } from './support/mcp-clients';
import { spawnService, SpawnedService } from './support/spawned-service';
import { waitFor } from './support/until';

/**
 * OpenTelemetry, seen from outside: the built service runs as its own process (the instrumentations
 * patch modules as Node loads them, which jest's module registry would bypass), exports OTLP/HTTP JSON
 * to a collector stand-in, and calls an ontology-query stand-in through the KWeaver adapter.
 */

const PRELOAD = ['-r', path.join(__dirname, 'support', 'report-opentelemetry-modules.js')];
const ARGUMENT_MARKER = 'argument-value-never-in-a-span';
const TOKEN_MARKER = 'token-never-in-a-span';
const TOOL_ARGUMENTS = {
  kn_id: 'kn-001',
  ot_id: 'patient',
  condition: { field: 'name', operation: '==', value: ARGUMENT_MARKER },
};

const SPAN_KIND = { internal: 1, server: 2, client: 3 };
const SPAN_STATUS_ERROR = 2;

interface OtlpAttribute {
  key: string;
  value: Record<string, unknown>;
}

interface OtlpExport {
  resourceSpans: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans: {
      spans: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: OtlpAttribute[];
        status?: { code?: number };
      }[];
    }[];
  }[];
}

interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  statusCode?: number;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

function attributesOf(attributes: OtlpAttribute[] = []): Record<string, unknown> {
  return Object.fromEntries(attributes.map(({ key, value }) => [key, Object.values(value)[0]]));
}

/** Every span in the OTLP/HTTP JSON bodies the collector stand-in received. */
function exportedSpans(collector: HttpPeer): ExportedSpan[] {
  return collector.requests.flatMap((request) =>
    (JSON.parse(request.body) as OtlpExport).resourceSpans.flatMap((resourceSpans) =>
      resourceSpans.scopeSpans.flatMap((scopeSpans) =>
        scopeSpans.spans.map((span) => ({
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId || undefined,
          name: span.name,
          kind: span.kind,
          statusCode: span.status?.code,
          attributes: attributesOf(span.attributes),
          resource: attributesOf(resourceSpans.resource?.attributes),
        })),
      ),
    ),
  );
}

/** The JSON log lines a service process wrote, each parsed. */
function logLines(service: SpawnedService): Record<string, unknown>[] {
  return service
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The @opentelemetry packages the stopped process had loaded, as the preload reported them. */
function loadedOpenTelemetry(service: SpawnedService): string[] {
  const line = service
    .stderr()
    .split('\n')
    .find((candidate) => candidate.startsWith('loaded-opentelemetry '));
  if (!line) throw new Error(`no module report in stderr:\n${service.stderr()}`);
  return JSON.parse(line.slice('loaded-opentelemetry '.length)) as string[];
}

describe('tracing (e2e)', () => {
  const collector = new HttpPeer((_request, response) => sendJson(response, 200, {}));
  const ontologyQuery = new HttpPeer((_request, response) =>
    sendJson(response, 200, { datas: [{ name: 'x', _instance_identity: { id: 'i-1' } }] }),
  );
  const bknBackend = new HttpPeer((_request, response) => sendJson(response, 404, {}));
  let kweaver: Record<string, string>;

  beforeAll(async () => {
    await Promise.all([collector.start(), ontologyQuery.start(), bknBackend.start()]);
    kweaver = { KN_BACKEND: 'kweaver', BKN_BACKEND_URL: bknBackend.url, ONTOLOGY_QUERY_URL: ontologyQuery.url };
  });

  afterAll(async () => {
    await Promise.all([collector.stop(), ontologyQuery.stop(), bknBackend.stop()]);
  });

  /** One query_object_instance call over MCP, with a bearer token the spans must not carry. */
  async function callTool(service: SpawnedService): Promise<ToolCallResult> {
    const client = await connectV1(service.url, { Authorization: `Bearer ${TOKEN_MARKER}` });
    try {
      return (await client.callTool({ name: 'query_object_instance', arguments: TOOL_ARGUMENTS })) as ToolCallResult;
    } finally {
      await client.close();
    }
  }

  it('exports the route, tool and upstream spans of one MCP tool call under one trace id, named in its log line', async () => {
    const service = await spawnService(
      { ...kweaver, LOG_LEVEL: 'info', OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '50' },
      PRELOAD,
    );
    try {
      const result = await callTool(service);
      expect(result.isError).toBeFalsy();
      const tool = await waitFor('the tool span', () =>
        exportedSpans(collector).find((span) => span.name === 'tools/call query_object_instance'),
      );
      const route = await waitFor('the route span', () =>
        exportedSpans(collector).find((span) => span.traceId === tool.traceId && span.kind === SPAN_KIND.server),
      );
      const upstream = exportedSpans(collector).find(
        (span) => span.traceId === tool.traceId && span.kind === SPAN_KIND.client,
      );

      expect(route.name).toBe(`POST ${MCP_PATH}`);
      expect(route.attributes['http.route']).toBe(MCP_PATH);
      expect(route.attributes['http.response.status_code']).toBe(200);
      expect(route.resource['service.name']).toBe('agent-retrieval');

      expect(tool.kind).toBe(SPAN_KIND.internal);
      expect(tool.attributes).toEqual({
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'query_object_instance',
        'agent_retrieval.kn_id': 'kn-001',
        'agent_retrieval.outcome': 'ok',
      });
      expect(tool.statusCode).not.toBe(SPAN_STATUS_ERROR);

      // The fetch to ontology-query is a client span under the tool span, naming the peer and the upstream.
      expect(upstream).toBeDefined();
      expect(upstream!.parentSpanId).toBe(tool.spanId);
      expect(upstream!.attributes).toMatchObject({
        'http.request.method': 'POST',
        'server.address': '127.0.0.1',
        'server.port': Number(new URL(ontologyQuery.url).port),
        'http.response.status_code': 200,
        'agent_retrieval.upstream': 'ontology-query',
      });

      // The trace continues at the upstream: W3C traceparent names the client span.
      const sent = ontologyQuery.requests.at(-1)!;
      expect(sent.headers.traceparent).toMatch(new RegExp(`^00-${tool.traceId}-${upstream!.spanId}-01$`));

      expect(result._meta?.['agent-retrieval/trace_id']).toBe(tool.traceId);
      const toolLine = logLines(service).find((line) => line.msg === 'capability call' && line.door === 'mcp');
      expect(toolLine).toMatchObject({ capability: 'query_object_instance', trace_id: tool.traceId });
      expect(toolLine?.span_id).toEqual(expect.stringMatching(/^[0-9a-f]{16}$/));
      // The line names its request, and that request's access line names the route, status and latency.
      const requestId = (toolLine?.req as { id?: unknown } | undefined)?.id;
      expect(requestId).toEqual(expect.any(String));
      const accessLine = logLines(service).find(
        (line) => line.msg === 'request completed' && (line.req as { id?: unknown }).id === requestId,
      );
      expect(accessLine).toMatchObject({
        req: { method: 'POST', url: MCP_PATH },
        res: { statusCode: 200 },
        route: MCP_PATH,
        responseTime: expect.any(Number) as unknown,
      });

      const exported = collector.requests.map((request) => request.body).join('\n');
      expect(exported).not.toContain(ARGUMENT_MARKER);
      expect(exported).not.toContain(TOKEN_MARKER);
      expect(exported.toLowerCase()).not.toContain('authorization');
    } finally {
      expect(await service.stop()).toBe(0);
    }
    // The probe this test's other half relies on does see the SDK when tracing is on.
    expect(loadedOpenTelemetry(service)).toEqual(expect.arrayContaining(['@opentelemetry/sdk-node']));
  });

  it("a traceparent in the call's _meta makes the tool span a child of the caller's span", async () => {
    const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpan = '00f067aa0ba902b7';
    const service = await spawnService(
      { ...kweaver, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '50' },
      PRELOAD,
    );
    try {
      const client = await connectV1(service.url);
      const result = (await client.callTool({
        name: 'query_object_instance',
        arguments: TOOL_ARGUMENTS,
        _meta: { traceparent: `00-${callerTrace}-${callerSpan}-01` },
      })) as ToolCallResult;
      await client.close();
      expect(result.isError).toBeFalsy();
      expect(result._meta?.['agent-retrieval/trace_id']).toBe(callerTrace);
      const tool = await waitFor('the tool span in the caller trace', () =>
        exportedSpans(collector).find(
          (span) => span.name === 'tools/call query_object_instance' && span.traceId === callerTrace,
        ),
      );
      expect(tool.parentSpanId).toBe(callerSpan);
      // The upstream call continues the caller's trace too.
      expect(ontologyQuery.requests.at(-1)!.headers.traceparent).toMatch(new RegExp(`^00-${callerTrace}-`));
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });

  it('without OTEL_EXPORTER_OTLP_ENDPOINT loads no OpenTelemetry module but the no-op API, and adds no trace ids', async () => {
    const exportsBefore = collector.requests.length;
    const service = await spawnService({ ...kweaver, LOG_LEVEL: 'info' }, PRELOAD);
    let result: ToolCallResult;
    try {
      result = await callTool(service);
    } finally {
      expect(await service.stop()).toBe(0);
    }
    expect(result.isError).toBeFalsy();
    expect(result._meta).not.toHaveProperty(['agent-retrieval/trace_id']);
    expect(ontologyQuery.requests.at(-1)!.headers).not.toHaveProperty('traceparent');
    const lines = logLines(service);
    expect(lines.find((line) => line.msg === 'capability call')).toBeDefined();
    expect(lines.filter((line) => 'trace_id' in line)).toEqual([]);
    expect(loadedOpenTelemetry(service)).toEqual(['@opentelemetry/api']);
    expect(collector.requests.length).toBe(exportsBefore);
  });
});
