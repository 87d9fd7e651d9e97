/**
 * Every tool's real output validates against the outputSchema it advertises (JSON Schema 2020-12,
 * ajv): one successful call per tool on the demo data, through the official SDK client. A tool added
 * without a case here fails the first test, so the list cannot silently fall behind.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import Ajv2020 from 'ajv/dist/2020';
import { startTestApp, TestApp } from './support/app';
import { diagnosisPath } from './support/clinic-paths';
import { freshDir } from './support/graph-rag-cli';
import { connectV1, textOf, ToolCallResult } from './support/mcp-clients';

const PATIENT = 'P00276';

/** One call per tool that succeeds on the demo data. */
const CALLS: Record<string, Record<string, unknown>> = {
  list_knowledge_networks: {},
  get_kn_detail: { kn_id: 'clinic', brief: false },
  search_schema: { query: '糖尿病', max_concepts: 3 },
  kn_schema_search: { query: '患者' },
  kn_search: { query: '2型糖尿病 开具处方' },
  query_object_instance: { ot_id: 'patient', limit: 3 },
  query_instance_subgraph: { relation_type_paths: [diagnosisPath(PATIENT)] },
  resolve_logic_properties: {
    ot_id: 'patient',
    query: '就诊次数',
    _instance_identities: [{ patient_id: PATIENT }],
    properties: ['visit_total'],
  },
  find_skills: { object_type_id: 'patient', instance_identities: [{ patient_id: 'P00002' }] },
  get_action_info: { at_id: 'create_prescription', _instance_identities: [{ patient_id: PATIENT }] },
  execute_action: {
    at_id: 'create_prescription',
    _instance_identity: { patient_id: PATIENT },
    arguments: { drug_id: 'DR001', dosage_instruction: '口服，每日2次', days_supply: 7 },
    confirm: true,
  },
  check_action: { at_id: 'create_prescription', _instance_identity: { patient_id: PATIENT } },
  reload_network: {},
  ci_graph_rag: { query: 'send email to customer' },
  ci_call_chain: { symbol: 'sendEmail', depth: 2 },
  weknora_search: { query: '二甲双胍 糖化血红蛋白', top_k: 3 },
  weknora_list_knowledge_bases: {},
};

interface ListedTool {
  name: string;
  outputSchema?: Record<string, unknown>;
  /** The connection that lists it: a tool is listed where what it needs exists. */
  client: Client;
}

describe('tool outputs against their outputSchema (e2e)', () => {
  let app: TestApp;
  let bound: Client;
  let open: Client;
  let tools: ListedTool[];
  const ajv = new Ajv2020({ strict: false, allErrors: true });

  beforeAll(async () => {
    app = await startTestApp({ CODE_ROOT: 'examples/code', DATA_DIR: freshDir('mcp-output-') });
    // The network's connection names its documents; discovery tools are listed where no network is set.
    bound = await connectV1(app.url, { 'X-Kn-ID': 'clinic', 'X-WeKnora-KB-IDs': 'clinic-guidelines' });
    open = await connectV1(app.url);
    const listed = async (client: Client) =>
      ((await client.listTools()).tools as Omit<ListedTool, 'client'>[]).map((tool) => ({ ...tool, client }));
    tools = await listed(bound);
    for (const tool of await listed(open)) if (!tools.some((known) => known.name === tool.name)) tools.push(tool);
  });

  afterAll(async () => {
    await bound?.close();
    await open?.close();
    await app.close();
  });

  it('has a case for every listed tool, and every tool declares an outputSchema', () => {
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(CALLS).sort());
    for (const tool of tools)
      expect({ tool: tool.name, schema: typeof tool.outputSchema }).toEqual({ tool: tool.name, schema: 'object' });
  });

  it.each(Object.entries(CALLS))(
    '%s: structuredContent validates against the advertised schema',
    async (name, args) => {
      const tool = tools.find((candidate) => candidate.name === name)!;
      const result = (await tool.client.callTool({ name, arguments: args })) as ToolCallResult;
      if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
      const validate = ajv.compile(tool.outputSchema!);
      const valid = validate(result.structuredContent);
      expect({ tool: name, errors: valid ? [] : validate.errors }).toEqual({ tool: name, errors: [] });
    },
  );
});
