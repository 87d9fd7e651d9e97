/**
 * The parity matrix (issue 29, acceptance 1): for every capability in the catalog × every door that offers
 * it × {allowed, denied by policy, outside the caller's networks, invalid input, action needing approval},
 * every door reaches the same decision with the same error code, each in its own shape — REST status and
 * error body, MCP `isError` with the code in `_meta`, the tool API's OpenAI error, the chat's tool result
 * (or, denied, a tool the model is never offered). The rows come from the catalog itself: a new
 * capability is covered without editing this file (it gets a generated input until it gets an example).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { CapabilityDefinition, Door } from '../src/capabilities/capability';
import { CapabilityCatalog } from '../src/capabilities/capability-catalog';
import { startTestApp, TestApp } from './support/app';
import { callDoor, Caller, Doors, generatedInput, invalidInput, Observation } from './support/capability-doors';
import { LlmStandin } from './support/llm-standin';
import { connectV1 } from './support/mcp-clients';

const OPEN: Caller = { token: 'tok-open', accountId: 'acct-open', accountType: 'operator' };
const CLINIC_ONLY: Caller = { token: 'tok-clinic', accountId: 'acct-clinic', accountType: 'agent' };
const BLOCKED: Caller = { token: 'tok-blocked', accountId: 'acct-blocked', accountType: 'blocked' };

/** Every capability runs unasked for these callers, so chat runs what the other doors run. */
const POLICY = {
  operator: { networks: ['*'], allow: ['*', '*__*'], deny: [], auto: ['*', '*__*'] },
  agent: { networks: ['clinic'], allow: ['*'], deny: [], auto: ['*'] },
  blocked: { networks: ['*'], allow: [], deny: [], auto: [] },
};

const DENIED = 'agentRetrieval.Forbidden.ToolDenied';
const NETWORK_NOT_FOUND = 'agentRetrieval.NotFound.KnowledgeNetworkNotFound';
const APPROVAL_REQUIRED = 'agentRetrieval.Forbidden.ActionApprovalRequired';

/** Realistic inputs on the clinic network; anything not listed gets one generated from its schema. */
const EXAMPLES: Record<string, Record<string, unknown>> = {
  search_schema: { query: '糖尿病' },
  kn_schema_search: { query: '糖尿病' },
  kn_search: { query: '糖尿病 治疗方案' },
  query_object_instance: { ot_id: 'patient', limit: 2 },
  find_skills: { object_type_id: 'patient' },
  query_instance_subgraph: {
    relation_type_paths: [
      {
        object_types: [
          { id: 'patient', condition: { operation: '==', field: 'patient_id', value: 'P00276' } },
          { id: 'diagnosis' },
        ],
        relation_types: [{ relation_type_id: 'patient_diagnosed_with' }],
      },
    ],
  },
  get_action_info: { at_id: 'create_prescription', _instance_identities: [{ patient_id: 'P00276' }] },
  weknora_search: { query: '糖尿病' },
  ci_graph_rag: { query: 'calculateTotal' },
  ci_call_chain: { symbol: 'calculateTotal' },
  read_file: { path: 'parity.txt' },
  write_file: { path: 'parity.txt', content: 'x' },
  full_build_ontology: { name: 'parity' },
};

/** An action that needs the user's approval, for every capability that takes `confirm`. */
const NEEDS_APPROVAL = {
  at_id: 'create_prescription',
  _instance_identity: { patient_id: 'P00276' },
  arguments: { drug_id: 'DR001', dosage_instruction: '口服，每次0.5g，每日2次', days_supply: 7 },
};

interface Scenario {
  name: string;
  caller: Caller;
  input(definition: CapabilityDefinition): Record<string, unknown> | undefined;
  /** The code every door must answer with, when the scenario fixes one. */
  expected?: string;
}

const withNetwork = (definition: CapabilityDefinition, knId: string, input: Record<string, unknown>) =>
  definition.network === 'required' ? { kn_id: knId, ...input } : input;

const SCENARIOS: Scenario[] = [
  {
    name: 'allowed',
    caller: OPEN,
    input: (definition) => withNetwork(definition, 'clinic', EXAMPLES[definition.name] ?? generatedInput(definition)),
  },
  {
    name: 'denied by policy',
    caller: BLOCKED,
    input: (definition) => withNetwork(definition, 'clinic', EXAMPLES[definition.name] ?? generatedInput(definition)),
    expected: DENIED,
  },
  {
    name: "outside the caller's networks",
    caller: CLINIC_ONLY,
    input: (definition) =>
      definition.network === 'required'
        ? { ...(EXAMPLES[definition.name] ?? generatedInput(definition)), kn_id: 'k8s_ops' }
        : undefined,
    expected: NETWORK_NOT_FOUND,
  },
  {
    name: 'invalid input',
    caller: OPEN,
    input: (definition) => {
      const invalid = invalidInput(definition);
      return invalid && withNetwork(definition, 'clinic', invalid);
    },
  },
  {
    name: 'action needing approval',
    caller: OPEN,
    input: (definition) => {
      const schema = definition.input as unknown as { shape?: Record<string, unknown> };
      return schema.shape && 'confirm' in schema.shape ? withNetwork(definition, 'clinic', NEEDS_APPROVAL) : undefined;
    },
    expected: APPROVAL_REQUIRED,
  },
];

describe('governance parity across every door (e2e)', () => {
  const model = new LlmStandin();
  const clients = new Map<string, Client>();
  let app: TestApp;
  let doors: Doors;
  let capabilities: readonly CapabilityDefinition[];
  const matrix: string[] = [];

  beforeAll(async () => {
    const llmUrl = await model.start();
    app = await startTestApp({
      AUTH_MODE: 'static',
      AUTH_STATIC_TOKENS: [OPEN, CLINIC_ONLY, BLOCKED]
        .map((caller) => `${caller.token}=${caller.accountId}:${caller.accountType}`)
        .join(','),
      ACCESS_POLICY: JSON.stringify(POLICY),
      LLM_BASE_URL: llmUrl,
      WORKSPACE_ROOT: mkdtempSync(path.join(tmpdir(), 'parity-ws-')),
      RATE_LIMIT_ENABLED: 'false',
      // Every capability has what it needs, so the MCP door offers all of them (its per-connection offer is
      // tested with the MCP tests).
      CODE_ROOT: 'examples/code',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'parity-data-')),
    });
    capabilities = app.app
      .get(CapabilityCatalog)
      .list()
      .map((capability) => capability.definition);
    doors = {
      baseUrl: app.url,
      model,
      mcp: async (caller) => {
        let client = clients.get(caller.token);
        if (!client) {
          client = await connectV1(app.url, { Authorization: `Bearer ${caller.token}`, 'X-Language': 'en-US' });
          clients.set(caller.token, client);
        }
        return client;
      },
    };
  });

  afterAll(async () => {
    // The matrix as every door answered it, one line per capability and scenario.
    if (matrix.length > 0) console.log(`parity matrix (${matrix.length} rows)\n${matrix.join('\n')}`);
    for (const client of clients.values()) await client.close();
    await app.close();
    await model.stop();
  });

  it('covers every capability of the catalog at every door that offers it', () => {
    expect(capabilities.length).toBeGreaterThanOrEqual(18);
    const doorsOf = (name: string) => capabilities.find((definition) => definition.name === name)?.doors;
    expect(doorsOf('kn_search')).toEqual(['rest', 'mcp', 'chat', 'tool-api']);
    expect(doorsOf('execute_action')).toEqual(['rest', 'mcp', 'chat', 'tool-api']);
    expect(doorsOf('read_file')).toEqual(['chat', 'tool-api']);
  });

  for (const scenario of SCENARIOS) {
    it(`${scenario.name}: every door decides alike`, async () => {
      const rows: string[] = [];
      for (const definition of capabilities) {
        const input = scenario.input(definition);
        if (!input) continue;
        const observed: Observation[] = [];
        for (const door of definition.doors.filter((each): each is Exclude<Door, 'proxy'> => each !== 'proxy')) {
          observed.push(await callDoor(doors, door, definition, scenario.caller, input));
        }
        rows.push(describeRow(definition.name, observed));
        matrix.push(`${scenario.name.padEnd(30)} ${describeRow(definition.name, observed)}`);
        expectParity(definition, observed, scenario);
      }
      expect(rows.length).toBeGreaterThan(0);
    });
  }
});

function describeRow(name: string, observed: Observation[]): string {
  return `${name}: ${observed.map((each) => `${each.door}=${each.outcome}${each.code ? `(${each.code})` : ''}`).join(' ')}`;
}

/**
 * One decision at every door: all ran, or all refused with one code. The chat shows a denial by never
 * offering the tool (and not running the model's call of it); a capability that words its own failures
 * gives the model its own line, whose code only the other doors show.
 */
function expectParity(definition: CapabilityDefinition, observed: Observation[], scenario: Scenario): void {
  const row = describeRow(definition.name, observed);
  const normalized = observed.map((observation) => {
    if (observation.door === 'chat' && observation.code === 'not_offered') {
      return { ...observation, code: DENIED };
    }
    return observation;
  });
  const outcomes = new Set(normalized.map((observation) => observation.outcome));
  expect({ row, outcomes: [...outcomes] }).toEqual({ row, outcomes: [normalized[0].outcome] });
  const codes = new Set(normalized.filter((each) => each.code !== undefined).map((each) => each.code));
  expect({ row, codes: codes.size }).toEqual({ row, codes: normalized[0].outcome === 'ok' ? 0 : 1 });
  if (scenario.expected) expect({ row, code: [...codes][0] }).toEqual({ row, code: scenario.expected });
  if (scenario.name === 'invalid input')
    expect({ row, code: [...codes][0] }).toEqual({ row, code: expect.stringMatching(/^agentRetrieval\.BadRequest\./) });
  if (scenario.expected === DENIED) {
    const chat = observed.find((observation) => observation.door === 'chat');
    if (chat) expect({ row, offered: chat.offered }).toEqual({ row, offered: false });
  }
}
