/**
 * Fuzzes every MCP tool `tools/list` returns with hostile arguments, half through the official SDK client
 * (which also checks structuredContent against each tool's outputSchema) and half as raw JSON-RPC text
 * (10,000 levels, NaN, invalid UTF-8, lone surrogates — what no SDK would send). Invariants per case: no
 * 5xx and no JSON-RPC internal error, an answer within CASE_DEADLINE_MS, no leak, tool failures as
 * isError results carrying the documented error body; per tool: /health/live still 200; per run: the heap.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectV1 } from '../support/mcp-clients';
import { RawHttpClient } from '../support/raw-http';
import { FuzzApp, startFuzzApp } from './fuzz-app';
import { FuzzReport } from './fuzz-report';
import { FUZZ_RUNS, FUZZ_SEED, selected } from './fuzz-run';
import { runToolCase, SdkClients, toolCase } from './mcp-cases';

/** MCP tools get this share of FUZZ_RUNS; the REST suite the rest. */
const MCP_SHARE = 0.3;
/** Room for the JSON-RPC envelope around the arguments within the body limit. */
const ENVELOPE_BYTES = 200;

interface ListedTool {
  name: string;
  inputSchema: { properties?: Record<string, unknown> };
}

describe(`fuzz: every MCP tool (FUZZ_SEED=${FUZZ_SEED})`, () => {
  const report = new FuzzReport('MCP tools');
  let fuzz: FuzzApp;
  let http: RawHttpClient;
  let sdk: SdkClients;
  const clients: Client[] = [];
  const tools: ListedTool[] = [];
  const started = performance.now();

  beforeAll(async () => {
    fuzz = await startFuzzApp();
    http = new RawHttpClient(fuzz.app.url);
    sdk = {
      // A network's connection is offered document tools when it names its knowledge bases.
      withKn: await connectV1(fuzz.app.url, { 'X-Kn-ID': 'clinic', 'X-WeKnora-KB-IDs': 'clinic-guidelines' }),
      withoutKn: await connectV1(fuzz.app.url),
    };
    clients.push(sdk.withKn, sdk.withoutKn);
    report.sampleHeap();
  });

  afterAll(async () => {
    report.sampleHeap();
    for (const client of clients) await client.close();
    http?.close();
    await fuzz?.close();
    process.stdout.write(`\n${report.table((performance.now() - started) / 1000)}\n`);
  });

  it('enumerates the tools from tools/list, knowledge-base and code tools included', async () => {
    // Both clients list the tools, so each caches every outputSchema and checks results against it.
    const listed = (await sdk.withKn.listTools()).tools as ListedTool[];
    await sdk.withoutKn.listTools();
    tools.push(...listed.filter((tool) => selected(`tool ${tool.name}`)));
    if (process.env.FUZZ_ONLY) return;
    expect(listed.map((tool) => tool.name)).toEqual(
      expect.arrayContaining([
        'kn_search',
        'query_object_instance',
        'execute_action',
        'weknora_search',
        'ci_graph_rag',
      ]),
    );
  });

  it('keeps every invariant on every tool', async () => {
    const perTool = Math.ceil((FUZZ_RUNS * MCP_SHARE) / Math.max(1, tools.length));
    const failures: string[] = [];
    for (const tool of tools) {
      const target = `tool ${tool.name}`;
      const fields = Object.keys(tool.inputSchema.properties ?? {});
      await report.fuzz(
        target,
        perTool,
        toolCase(fields, fuzz.bodyLimitBytes - ENVELOPE_BYTES),
        (input) => runToolCase(tool.name, input, http, sdk, (outcome) => report.record(target, outcome)),
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
