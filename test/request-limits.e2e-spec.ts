import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import request from 'supertest';
import { INTERNAL_CALLER, startTestApp, TestApp } from './support/app';
import { scratchDir, ScratchDir, testMcpServers } from './support/mcp-fixtures';
import { connectV1, connectV2, errorBodyOf, MCP_PATH, ToolCallResult } from './support/mcp-clients';

const PUBLIC = '/api/agent-retrieval/v1';
const PRIVATE = '/api/agent-retrieval/in/v1';
const TOKEN = { Authorization: 'Bearer secret' };
const RPC_HEADERS = { Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json', ...TOKEN };

/** `levels` nested arrays as JSON text: the probe's `[[[…]]]`. */
const deepArray = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** A condition tree of `levels` nested `and` nodes around one leaf. */
function deepCondition(levels: number): Record<string, unknown> {
  let condition: Record<string, unknown> = { operation: '==', field: 'patient_id', value: 'P00001' };
  for (let i = 1; i < levels; i++) condition = { operation: 'and', sub_conditions: [condition] };
  return condition;
}

interface ErrorBody {
  code: string;
  description: string;
  details?: unknown;
}

function expectRefusal(body: ErrorBody, code: string, details: string): void {
  expect(body).toMatchObject({ code, details });
  expect(JSON.stringify(body)).not.toMatch(/RangeError|stack|\.ts:|node_modules|SELECT /);
}

describe('request limits (e2e)', () => {
  let app: TestApp;
  let scratch: ScratchDir;
  let client: Client;

  beforeAll(async () => {
    scratch = scratchDir('limits');
    const servers = JSON.parse(testMcpServers(`${scratch.dir}/pid`)) as { mcpServers: Record<string, unknown> };
    servers.mcpServers.down = { url: 'http://127.0.0.1:9/mcp' };
    app = await startTestApp({
      AUTH_MODE: 'static',
      AUTH_STATIC_TOKENS: 'secret=alice:user',
      MCP_SERVERS_FILE: scratch.file('mcp.json', JSON.stringify(servers)),
      MCP_CONNECT_TIMEOUT_MS: '2000',
    });
    client = await connectV1(app.url, { ...TOKEN, 'X-Kn-ID': 'clinic', 'X-Language': 'en-US' });
  });

  afterAll(async () => {
    await client.close();
    await app.close();
    scratch.remove();
  });

  // A private path also names its in-cluster caller's account (without one it is 401 before any limit).
  const post = (path: string) =>
    request(app.url)
      .post(path)
      .set(TOKEN)
      .set(path.startsWith(PRIVATE) ? INTERNAL_CALLER : {})
      .set('X-Language', 'en-US');
  const call = async (name: string, args: Record<string, unknown>) =>
    errorBodyOf((await client.callTool({ name, arguments: args })) as ToolCallResult);

  describe('D2: one request cannot exhaust the CPU', () => {
    const longQuery = 'x y '.repeat(10000);

    it('a 40 KB query → 400 naming query and the limit, over REST and MCP', async () => {
      const rest = await post(`${PUBLIC}/kn/kn_search`).send({ kn_id: 'clinic', query: longQuery }).expect(400);
      expectRefusal(
        rest.body,
        'agentRetrieval.BadRequest.LimitExceeded',
        'Parameter query must have at most 2000 characters',
      );
      const tool = await call('kn_search', { query: longQuery });
      expectRefusal(
        tool,
        'agentRetrieval.BadRequest.LimitExceeded',
        'Parameter query must have at most 2000 characters',
      );
    });

    it('a 2 MB body with a long query → 400, and /health/live answers meanwhile', async () => {
      const body = JSON.stringify({ kn_id: 'clinic', query: 'x y '.repeat(500000) });
      const [search, live] = await Promise.all([
        post(`${PUBLIC}/kn/kn_search`).set('Content-Type', 'application/json').send(body),
        request(app.url).get('/health/live'),
      ]);
      expect(search.status).toBe(400);
      expect(search.body.code).toBe('agentRetrieval.BadRequest.LimitExceeded');
      expect(live.status).toBe(200);
    });

    it('more distinct search terms than MAX_SEARCH_TERMS → 400, a long query of few terms passes', async () => {
      const terms = Array.from({ length: 33 }, (_, i) => `term${i}`).join(' ');
      const many = await post(`${PUBLIC}/kn/semantic-search`).send({ kn_id: 'clinic', query: terms }).expect(400);
      expectRefusal(
        many.body,
        'agentRetrieval.BadRequest.LimitExceeded',
        'Parameter query must have at most 32 distinct search terms',
      );
      await post(`${PUBLIC}/kn/kn_search`)
        .send({ kn_id: 'clinic', query: '糖尿病 '.repeat(400) })
        .expect(200);
    });

    it('bounds conditions: depth, node count, in lists and match text', async () => {
      const query = (condition: unknown) =>
        post(`${PUBLIC}/kn/query_object_instance`).send({ kn_id: 'clinic', ot_id: 'patient', condition });
      expectRefusal(
        (await query(deepCondition(11)).expect(400)).body,
        'agentRetrieval.BadRequest.LimitExceeded',
        'Parameter condition must not be nested deeper than 10 levels',
      );
      await query(deepCondition(10)).expect(200);
      const leaf = { operation: '==', field: 'patient_id', value: 'P00001' };
      expectRefusal(
        (await query({ operation: 'or', sub_conditions: Array(256).fill(leaf) }).expect(400)).body,
        'agentRetrieval.BadRequest.LimitExceeded',
        'Parameter condition must have at most 256 conditions',
      );
      const list = Array.from({ length: 10001 }, (_, i) => `P${i}`);
      expectRefusal(
        (await query({ operation: 'in', field: 'patient_id', value: list }).expect(400)).body,
        'agentRetrieval.BadRequest.LimitExceeded',
        'Parameter condition.value must contain at most 10000 items',
      );
      const match = { operation: 'match', field: '*', value: 'x'.repeat(2001) };
      expectRefusal(
        (await query(match).expect(400)).body,
        'agentRetrieval.BadRequest.LimitExceeded',
        'Parameter condition.value must have at most 2000 characters',
      );
    });

    it('bounds subgraph paths and hops, and _instance_identities', async () => {
      const step = { id: 'patient' };
      const paths = Array(21).fill({ object_types: [step], relation_types: [] });
      const tooMany = await post(`${PUBLIC}/kn/query_instance_subgraph`)
        .send({ kn_id: 'clinic', relation_type_paths: paths })
        .expect(400);
      expectRefusal(
        tooMany.body,
        'agentRetrieval.BadRequest.LimitExceeded',
        'Parameter relation_type_paths must contain at most 20 items',
      );
      const long = [{ object_types: Array(10).fill(step), relation_types: [] }];
      const hops = await post(`${PUBLIC}/kn/query_instance_subgraph`)
        .send({ kn_id: 'clinic', relation_type_paths: long })
        .expect(400);
      expectRefusal(
        hops.body,
        'agentRetrieval.BadRequest.LimitExceeded',
        'Parameter relation_type_paths[0] must have at most 8 hops',
      );
      const identities = Array.from({ length: 1001 }, (_, i) => ({ patient_id: `P${i}` }));
      const logic = await post(`${PUBLIC}/kn/logic-property-resolver`).send({
        kn_id: 'clinic',
        ot_id: 'patient',
        query: 'q',
        properties: ['visit_total'],
        _instance_identities: identities,
      });
      expectRefusal(
        logic.body,
        'agentRetrieval.BadRequest.LimitExceeded',
        'Parameter _instance_identities must contain at most 1000 items',
      );
      const actions = await post(`${PUBLIC}/kn/get_action_info`).send({
        kn_id: 'clinic',
        at_id: 'create_prescription',
        _instance_identities: identities,
      });
      expect(actions.status).toBe(400);
    });
  });

  describe('ids are bounded and error details never grow with the input', () => {
    it('an id over 256 characters → 400 naming it, over REST and MCP', async () => {
      const rest = await post(`${PUBLIC}/kn/query_object_instance`)
        .send({ kn_id: 'clinic', ot_id: 'o'.repeat(100000) })
        .expect(400);
      expectRefusal(
        rest.body,
        'agentRetrieval.BadRequest.LimitExceeded',
        'Parameter ot_id must have at most 256 characters',
      );
      const knId = await post(`${PUBLIC}/kn/kn_search`)
        .send({ kn_id: 'k'.repeat(257), query: 'x' })
        .expect(400);
      expectRefusal(
        knId.body,
        'agentRetrieval.BadRequest.LimitExceeded',
        'Parameter kn_id must have at most 256 characters',
      );
      const tool = await call('get_action_info', { at_id: 'a'.repeat(300) });
      expectRefusal(
        tool,
        'agentRetrieval.BadRequest.LimitExceeded',
        'Parameter at_id must have at most 256 characters',
      );
    });

    it('an error that quotes the caller’s names is cut at 1,000 characters', async () => {
      const names = Array.from({ length: 90 }, (_, i) => `a_logic_property_that_does_not_exist_${i}`);
      const response = await post(`${PUBLIC}/kn/logic-property-resolver`)
        .send({
          kn_id: 'clinic',
          ot_id: 'patient',
          query: 'q',
          _instance_identities: [{ patient_id: 'P00001' }],
          properties: names,
        })
        .expect(400);
      expect(response.body.code).toBe('agentRetrieval.BadRequest.LogicPropertyNotFound');
      expect(response.body.details).toMatch(/^properties not found/);
      expect(response.body.details.length).toBeLessThanOrEqual(1001);
      expect(response.body.details.endsWith('…')).toBe(true);
    });
  });

  describe('D4: deep nesting is a 400 before validation runs', () => {
    it.each([
      ['kn_search query', `${PUBLIC}/kn/kn_search`, `{"kn_id":"clinic","query":${deepArray(10000)}}`, 'query'],
      [
        'a deep condition',
        `${PUBLIC}/kn/query_object_instance`,
        `{"kn_id":"clinic","ot_id":"patient","condition":${JSON.stringify(deepCondition(40))}}`,
        'condition',
      ],
      [
        'a deep object',
        `${PUBLIC}/kn/get_action_info`,
        `{"kn_id":"clinic","at_id":"x","_instance_identity":${'{"a":'.repeat(10000)}1${'}'.repeat(10000)}}`,
        '_instance_identity',
      ],
      ['the private prefix', `${PRIVATE}/kn/semantic-search`, `{"query":${deepArray(100)}}`, 'query'],
    ])('%s → 400 LimitExceeded naming the field', async (_what, path, body, field) => {
      const response = await post(path).set('Content-Type', 'application/json').send(body).expect(400);
      expectRefusal(
        response.body,
        'agentRetrieval.BadRequest.LimitExceeded',
        `Parameter ${field} must not be nested deeper than 64 levels`,
      );
    });

    it('a body exactly at the limit is accepted', async () => {
      const atLimit = `{"kn_id":"clinic","query":"糖尿病","retrieval_config":${'{"a":'.repeat(62)}1${'}'.repeat(62)}}`;
      await post(`${PUBLIC}/kn/kn_search`).set('Content-Type', 'application/json').send(atLimit).expect(200);
    });

    it('unpaired surrogates anywhere in a body → 400 InvalidUnicode naming the place', async () => {
      const response = await post(`${PUBLIC}/kn/query_object_instance`)
        .set('Content-Type', 'application/json')
        .send('{"kn_id":"clinic","ot_id":"patient","condition":{"operation":"match","field":"*","value":"\\udfff"}}')
        .expect(400);
      expectRefusal(
        response.body,
        'agentRetrieval.BadRequest.InvalidUnicode',
        'Parameter condition.value contains an unpaired UTF-16 surrogate',
      );
    });
  });

  describe('D5: MCP tool calls end in validation results, never the internal-error code', () => {
    it('kn_search and ci_call_chain with response_format {"toString":"x"}', async () => {
      for (const [name, args] of [
        ['kn_search', { query: '糖尿病' }],
        ['ci_call_chain', { symbol: 'main' }],
      ] as const) {
        const body = await call(name, { ...args, response_format: { toString: 'x' } });
        expectRefusal(
          body,
          'agentRetrieval.BadRequest.InvalidResponseFormat',
          'invalid response_format: "object" (allowed: json, toon)',
        );
      }
    });

    it('resolve_logic_properties with a lone surrogate in an identity', async () => {
      const body = await call('resolve_logic_properties', {
        ot_id: 'patient',
        query: '就诊次数',
        properties: ['visit_total'],
        _instance_identities: [{ patient_id: '\udfff' }],
      });
      expectRefusal(
        body,
        'agentRetrieval.BadRequest.InvalidUnicode',
        'Parameter _instance_identities[0].patient_id contains an unpaired UTF-16 surrogate',
      );
    });

    it('the same over the 2026-07-28 revision (SDK 2.x, stateless discover)', async () => {
      const modern = await connectV2(app.url, { ...TOKEN, 'X-Kn-ID': 'clinic', 'X-Language': 'en-US' }, true);
      try {
        const result = await modern.callTool({
          name: 'resolve_logic_properties',
          arguments: {
            ot_id: 'patient',
            query: 'q',
            properties: ['visit_total'],
            _instance_identities: [{ patient_id: '\udfff' }],
          },
        });
        expectRefusal(
          errorBodyOf(result as ToolCallResult),
          'agentRetrieval.BadRequest.InvalidUnicode',
          'Parameter _instance_identities[0].patient_id contains an unpaired UTF-16 surrogate',
        );
        const deep = await modern.callTool({
          name: 'query_object_instance',
          arguments: { ot_id: 'patient', condition: deepCondition(1000) },
        });
        expect(errorBodyOf(deep as ToolCallResult).code).toBe('agentRetrieval.BadRequest.LimitExceeded');
      } finally {
        await modern.close();
      }
    });

    it('query_object_instance with a 1,000-deep condition, REST and MCP alike', async () => {
      const body = await call('query_object_instance', { ot_id: 'patient', condition: deepCondition(1000) });
      expectRefusal(
        body,
        'agentRetrieval.BadRequest.LimitExceeded',
        'Parameter condition must not be nested deeper than 64 levels',
      );
      const shallower = await call('query_object_instance', { ot_id: 'patient', condition: deepCondition(30) });
      expectRefusal(
        shallower,
        'agentRetrieval.BadRequest.LimitExceeded',
        'Parameter condition must not be nested deeper than 10 levels',
      );
    });

    it('query_instance_subgraph with a 300,000-element array, before any schema walks it', async () => {
      const paths = Array(300000).fill({});
      const body = await call('query_instance_subgraph', { relation_type_paths: paths });
      expectRefusal(
        body,
        'agentRetrieval.BadRequest.LimitExceeded',
        'Parameter relation_type_paths must contain at most 10000 items',
      );
      const few = await call('query_instance_subgraph', {
        relation_type_paths: Array(21).fill({ object_types: [{ id: 'patient' }], relation_types: [] }),
      });
      expectRefusal(
        few,
        'agentRetrieval.BadRequest.LimitExceeded',
        'Parameter relation_type_paths must contain at most 20 items',
      );
    });

    it('a million wrong-typed elements in any array argument are refused before validation', async () => {
      const body = await call('resolve_logic_properties', {
        ot_id: 'patient',
        query: 'q',
        _instance_identities: [{ patient_id: 'P00001' }],
        properties: Array(1000000).fill(1),
      });
      expectRefusal(
        body,
        'agentRetrieval.BadRequest.LimitExceeded',
        'Parameter properties must contain at most 10000 items',
      );
      const rest = await post(`${PUBLIC}/kn/query_object_instance`)
        .send({ kn_id: 'clinic', ot_id: 'patient', properties: Array(10001).fill('x') })
        .expect(400);
      expectRefusal(
        rest.body,
        'agentRetrieval.BadRequest.LimitExceeded',
        'Parameter properties must contain at most 10000 items',
      );
    });

    it('a 10,000-level argument no SDK can even serialise is still an isError result naming it', async () => {
      const raw = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"kn_search","arguments":{"query":"糖尿病","kn_id":"clinic","extra":${deepArray(10000)}}}}`;
      const response = await request(app.url)
        .post(MCP_PATH)
        .set(RPC_HEADERS)
        .set('X-Language', 'en-US')
        .send(raw)
        .expect(200);
      expect(response.body.id).toBe(7);
      expectRefusal(
        errorBodyOf(response.body.result as ToolCallResult),
        'agentRetrieval.BadRequest.LimitExceeded',
        'Parameter extra must not be nested deeper than 64 levels',
      );
    });

    it('a message too deep outside the arguments is a JSON-RPC error', async () => {
      const raw = `{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{"_meta":{"x":${deepArray(200)}}}}`;
      const response = await request(app.url)
        .post(MCP_PATH)
        .set(RPC_HEADERS)
        .set('X-Language', 'en-US')
        .send(raw)
        .expect(400);
      expect(response.body).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Invalid Request: Parameter params must not be nested deeper than 64 levels' },
      });
    });
  });

  describe('D6: the MCP proxy', () => {
    it('deep arguments are the caller’s 400, not an upstream failure', async () => {
      const body = `{"message":"x","a":${deepArray(10000)}}`;
      const response = await post(`${PRIVATE}/mcp/proxy/clinic_tools/tools/echo/call`)
        .set('Content-Type', 'application/json')
        .send(body)
        .expect(400);
      expectRefusal(
        response.body,
        'agentRetrieval.BadRequest.LimitExceeded',
        'Parameter a must not be nested deeper than 64 levels',
      );
    });

    it('an unreachable server is a 502 whose details carry no library text', async () => {
      const response = await post(`${PRIVATE}/mcp/proxy/down/tools/echo/call`).send({ message: 'x' }).expect(502);
      expect(response.body.code).toBe('agentRetrieval.BadGateway.UpstreamUnreachable');
      expect(response.body.details).toBe('MCP server down is unreachable');
    });
  });

  describe('D6b: the toolbox proxy', () => {
    it('a lone surrogate in a path parameter → 400 naming it', async () => {
      const response = await post(`${PRIVATE}/tool-box/clinic_toolbox/proxy/bookAppointment`)
        .set('Content-Type', 'application/json')
        .send('{"path":{"dept_id":"\\ud800"}}')
        .expect(400);
      expectRefusal(
        response.body,
        'agentRetrieval.BadRequest.InvalidUnicode',
        'Parameter path.dept_id contains an unpaired UTF-16 surrogate',
      );
    });
  });
});
