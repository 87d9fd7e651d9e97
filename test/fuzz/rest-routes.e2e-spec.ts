/**
 * Fuzzes every REST route the router holds (both prefixes, the chat door, the MCP endpoint's HTTP
 * routes, probes and docs) with hostile path parameters, query strings, headers and bodies. Invariants
 * per case: no undocumented 5xx, an answer within CASE_DEADLINE_MS, no stack trace, file path or SQL text
 * in the answer, a 4xx in the documented error shape; per route: /health/live still 200; per run: the
 * heap after a full collection does not keep growing. FUZZ_SEED / FUZZ_RUNS / FUZZ_ONLY: README "Tests".
 */
import { PUBLIC_PREFIX } from '../../src/common/http/route-prefixes';
import { RawHttpClient } from '../support/raw-http';
import { Route, routerRoutes } from '../support/router-routes';
import { FuzzApp, startFuzzApp } from './fuzz-app';
import { FuzzReport } from './fuzz-report';
import { FUZZ_RUNS, FUZZ_SEED, selected, shareCases } from './fuzz-run';
import { restCase, routeFields, runRestCase } from './rest-cases';

/** REST routes get this share of FUZZ_RUNS; the MCP tools suite the rest. */
const REST_SHARE = 0.7;

interface OpenApiOperation {
  requestBody?: { content?: Record<string, { schema?: { $ref?: string; properties?: Record<string, unknown> } }> };
}
interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, { properties?: Record<string, unknown> }> };
}

/** Body fields per `METHOD /template`, read from the service's own OpenAPI document. */
async function openApiFields(url: string): Promise<Map<string, string[]>> {
  const document = (await (await fetch(`${url}/api/agent-retrieval/docs-json`)).json()) as OpenApiDocument;
  const fields = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      let schema = operation.requestBody?.content?.['application/json']?.schema;
      if (schema?.$ref) schema = document.components?.schemas?.[schema.$ref.split('/').pop()!];
      const template = path.replace(/\{(\w+)\}/g, ':$1');
      fields.set(`${method.toUpperCase()} ${template}`, Object.keys(schema?.properties ?? {}));
    }
  }
  return fields;
}

/** API routes that take a body get the most cases; probes, docs and metrics a few. */
function weight(route: Route): number {
  const api = route.path.startsWith('/api/') || route.path.startsWith('/v1/');
  if (!api || route.path.startsWith('/api/agent-retrieval/docs')) return 0.3;
  return route.method === 'GET' ? 1 : 3;
}

const targetName = (route: Route): string => `${route.method} ${route.template}`;

describe(`fuzz: every REST route (FUZZ_SEED=${FUZZ_SEED})`, () => {
  const report = new FuzzReport('REST routes');
  let fuzz: FuzzApp;
  let client: RawHttpClient;
  let fields: Map<string, string[]>;
  const started = performance.now();

  // The routes are read from the router of an app booted only for that (describe bodies cannot await).
  const routes: Route[] = [];
  const cases = new Map<string, number>();

  beforeAll(async () => {
    fuzz = await startFuzzApp();
    client = new RawHttpClient(fuzz.app.url);
    fields = await openApiFields(fuzz.app.url);
    report.sampleHeap();
  });

  afterAll(async () => {
    report.sampleHeap();
    client?.close();
    await fuzz?.close();
    process.stdout.write(`\n${report.table((performance.now() - started) / 1000)}\n`);
  });

  it('enumerates the routes from the router: both prefixes, chat, knowledge bases and the MCP endpoint', () => {
    routes.push(...routerRoutes(fuzz.app).filter((route) => selected(targetName(route))));
    const budget = Math.ceil(FUZZ_RUNS * REST_SHARE);
    for (const [target, count] of shareCases(
      new Map(routes.map((route) => [targetName(route), weight(route)])),
      budget,
    ))
      cases.set(target, count);
    if (process.env.FUZZ_ONLY) return;
    const names = routes.map(targetName);
    expect(names).toEqual(
      expect.arrayContaining([
        `POST ${PUBLIC_PREFIX}/kn/kn_search`,
        'POST /api/agent-retrieval/in/v1/kn/kn_search',
        'POST /v1/chat/completions',
        'POST /v1/tools/:name/call',
        `POST ${PUBLIC_PREFIX}/kb/search`,
        `POST ${PUBLIC_PREFIX}/mcp`,
      ]),
    );
    expect([...cases.values()].reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(budget);
  });

  it('keeps every invariant on every route', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      const target = targetName(route);
      await report.fuzz(
        target,
        cases.get(target) ?? 1,
        restCase(route, routeFields(route, fields), fuzz.bodyLimitBytes),
        (input) => runRestCase(client, route, input, (outcome) => report.record(target, outcome)),
        fuzz.app.url,
        failures,
      );
    }
    expect(failures).toEqual([]);
  }, 1_800_000);

  it('holds the heap: the last third of the run uses no more than the first third plus slack', () => {
    const { first, last } = report.heapThirds();
    expect(last).toBeLessThan(FuzzReport.heapLimitMb(first));
  });
});
