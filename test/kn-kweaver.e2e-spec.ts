import { AppException, PassThroughException } from '../src/common/errors/app.exception';
import { ErrorPresenter } from '../src/common/errors/error-presenter';
import { runWithRequestContext } from '../src/common/context/request-context';
import { KnowledgeNetworkPort } from '../src/knowledge-network/knowledge-network.port';
import { startTestApp, TestApp } from './support/app';
import { HttpPeer, RecordedRequest, sendJson } from './support/http-peer';

/**
 * The KWeaver adapter driven through the running app (KN_BACKEND=kweaver) against HttpPeers that
 * speak the ontology-query and bkn-backend contracts (upstream-contracts §7.1, §7.2). Port-level;
 * the /kn routes over this adapter are in kn-kweaver-routes.e2e-spec.ts.
 */

const BKN = '/api/bkn-backend/in/v1/knowledge-networks';
const OQ = '/api/ontology-query/in/v1/knowledge-networks';
const ACCOUNT = { id: 'u1', type: 'user' };
const REQUEST_ID = 'req-kweaver-1';

const CASE_20_BODY = {
  error_code: 'BknBackend.KnowledgeNetwork.NotFound',
  description: 'knowledge network not found',
  solution: 'check kn_id',
  error_link: 'https://example.com/bkn-error',
  error_details: { kn_id: 'kn-001' },
};

function asAccount<T>(call: () => Promise<T>): Promise<T> {
  return runWithRequestContext({ requestId: REQUEST_ID, language: 'en-US', account: ACCOUNT }, call);
}

async function failureOf(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await asAccount(call);
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

function expectForwarded(request: RecordedRequest): void {
  expect(request.headers['x-account-id']).toBe('u1');
  expect(request.headers['x-account-type']).toBe('user');
  expect(request.headers['x-request-id']).toBe(REQUEST_ID);
  expect(request.headers.authorization).toBeUndefined();
}

function expectSearchPost(request: RecordedRequest): void {
  expect(request.method).toBe('POST');
  expect(request.headers['x-http-method-override']).toBe('GET');
  expect(request.headers['content-type']).toBe('application/json');
  expectForwarded(request);
}

describe('KWeaver knowledge network (e2e)', () => {
  const bkn = new HttpPeer((_request, response) => sendJson(response, 500, {}));
  const oq = new HttpPeer((_request, response) => sendJson(response, 500, {}));
  let app: TestApp;
  let kn: KnowledgeNetworkPort;
  let presenter: ErrorPresenter;

  beforeAll(async () => {
    await Promise.all([bkn.start(), oq.start()]);
    app = await startTestApp({
      KN_BACKEND: 'kweaver',
      BKN_BACKEND_URL: bkn.url,
      ONTOLOGY_QUERY_URL: oq.url,
      ONTOLOGY_QUERY_TIMEOUT_MS: '300',
    });
    kn = app.app.get(KnowledgeNetworkPort);
    presenter = app.app.get(ErrorPresenter);
  });

  afterAll(async () => {
    await app?.close();
    await Promise.all([bkn.stop(), oq.stop()]);
  });

  beforeEach(() => {
    bkn.requests.length = 0;
    oq.requests.length = 0;
  });

  it('lists networks from the bkn-backend list endpoint', async () => {
    bkn.setHandler((_request, response) =>
      sendJson(response, 200, {
        entries: [
          {
            id: 'kn-001',
            name: 'Supply',
            description: 'd',
            statistics: { object_types_total: 2, relation_types_total: 1, action_types_total: 1 },
          },
        ],
        total_count: 1,
      }),
    );
    const networks = await asAccount(() => kn.listNetworks());
    expect(networks).toEqual([
      {
        id: 'kn-001',
        name: 'Supply',
        comment: 'd',
        object_type_count: 2,
        relation_type_count: 1,
        action_type_count: 1,
      },
    ]);
    expect(bkn.requests).toHaveLength(1);
    expect(bkn.requests[0].method).toBe('GET');
    expect(bkn.requests[0].url).toBe(`${BKN}?offset=0&limit=100`);
    expectForwarded(bkn.requests[0]);
  });

  it('exports the schema with include_detail=true&mode=export', async () => {
    bkn.setHandler((_request, response) =>
      sendJson(response, 200, {
        id: 'kn-001',
        name: 'Supply',
        object_types: [
          {
            id: 'ot_order',
            name: 'Order',
            primary_keys: ['id'],
            data_properties: [{ name: 'id', type: 'string', condition_operations: ['=='] }],
          },
        ],
        relation_types: [
          {
            id: 'rt_1',
            name: 'has',
            source_object_type_id: 'ot_order',
            target_object_type_id: 'ot_item',
            type: 'direct',
          },
        ],
        action_types: [
          {
            id: 'at_1',
            name: 'Restock',
            object_type_id: 'ot_order',
            action_source: { type: 'mcp', mcp_id: 'm1', tool_name: 't' },
          },
        ],
        concept_groups: [],
      }),
    );
    const schema = await asAccount(() => kn.exportSchema('kn-001'));
    expect(bkn.requests[0].url).toBe(`${BKN}/kn-001?include_detail=true&mode=export`);
    expectForwarded(bkn.requests[0]);
    expect(schema.object_types[0]).toEqual({
      id: 'ot_order',
      name: 'Order',
      tags: [],
      data_properties: [{ name: 'id', type: 'string', condition_operations: ['=='] }],
      logic_properties: [],
      primary_keys: ['id'],
    });
    expect(schema.relation_types.map((rt) => rt.id)).toEqual(['rt_1']);
    expect(schema.action_types[0].action_source).toEqual({ type: 'mcp', mcp_id: 'm1', tool_name: 't' });
  });

  it('searches every requested concept type with the knn+match body and merges by score', async () => {
    const scores: Record<string, { id: string; name: string; _score: number }[]> = {
      'object-types': [{ id: 'ot_order', name: 'Order', _score: 0.6 }],
      'relation-types': [{ id: 'rt_1', name: 'has', _score: 0.9 }],
    };
    bkn.setHandler((request, response) => {
      const collection = request.url.split('/').pop() ?? '';
      sendJson(response, 200, { entries: scores[collection] ?? [], total_count: 1 });
    });
    const hits = await asAccount(() =>
      kn.searchConcepts('kn-001', {
        query: 'order',
        concept_types: ['object_type', 'relation_type'],
        limit: 5,
        concept_groups: ['g1'],
      }),
    );
    expect(hits.map((hit) => [hit.concept_type, hit.id, hit.score])).toEqual([
      ['relation_type', 'rt_1', 0.9],
      ['object_type', 'ot_order', 0.6],
    ]);
    expect(bkn.requests.map((request) => request.url).sort()).toEqual([
      `${BKN}/kn-001/object-types`,
      `${BKN}/kn-001/relation-types`,
    ]);
    for (const request of bkn.requests) {
      expectSearchPost(request);
      expect(JSON.parse(request.body)).toEqual({
        concept_groups: ['g1'],
        condition: {
          operation: 'or',
          sub_conditions: [
            { field: '*', operation: 'knn', value: 'order', value_from: 'const', limit_key: 'k', limit_value: 5 },
            { field: '*', operation: 'match', value: 'order', value_from: 'const' },
          ],
        },
        sort: [{ field: '_score', direction: 'desc' }],
        limit: 5,
        need_total: false,
      });
    }
  });

  it('queries object instances and keeps each _instance_identity', async () => {
    oq.setHandler((_request, response) =>
      sendJson(response, 200, {
        datas: [{ id: 'o-1', amount: 3, _instance_identity: { id: 'o-1' } }],
        object_type: { id: 'ot_order' },
        total_count: 1,
      }),
    );
    const condition = { operation: '==' as const, field: 'id', value: 'o-1', value_from: 'const' as const };
    const result = await asAccount(() =>
      kn.queryInstances('kn-001', 'ot_order', { condition, limit: 10, properties: ['id'], include_logic_params: true }),
    );
    expect(result).toEqual({ datas: [{ id: 'o-1', amount: 3, _instance_identity: { id: 'o-1' } }] });
    expect(oq.requests[0].url).toBe(
      `${OQ}/kn-001/object-types/ot_order?include_type_info=false&include_logic_params=true`,
    );
    expectSearchPost(oq.requests[0]);
    expect(JSON.parse(oq.requests[0].body)).toEqual({ condition, limit: 10, properties: ['id'] });
  });

  it('queries a subgraph along relation paths', async () => {
    const entry = { objects: {}, relation_paths: [], total_count: 0 };
    oq.setHandler((_request, response) => sendJson(response, 200, { entries: [entry] }));
    const paths = [
      {
        object_types: [{ id: 'ot_order', limit: 5 }, { id: 'ot_item' }],
        relation_types: [
          { relation_type_id: 'rt_1', source_object_type_id: 'ot_order', target_object_type_id: 'ot_item' },
        ],
      },
    ];
    const result = await asAccount(() => kn.querySubgraph('kn-001', paths));
    expect(result).toEqual({ entries: [entry] });
    expect(oq.requests[0].url).toBe(`${OQ}/kn-001/subgraph?query_type=relation_path`);
    expectSearchPost(oq.requests[0]);
    expect(JSON.parse(oq.requests[0].body)).toEqual({ relation_type_paths: paths });
  });

  it('queries actions with identities sent as an array, never null (case 12)', async () => {
    oq.setHandler((_request, response) =>
      sendJson(response, 200, {
        action_source: { type: 'tool', box_id: 'box-001', tool_id: 'tool-001' },
        actions: [{ parameters: { param1: 'value1' }, dynamic_params: {} }],
        total_count: 1,
      }),
    );
    const result = await asAccount(() => kn.queryActions('kn-001', 'at-001', []));
    expect(oq.requests[0].url).toBe(`${OQ}/kn-001/action-types/at-001`);
    expectSearchPost(oq.requests[0]);
    expect(oq.requests[0].body).toBe('{"_instance_identities":[]}');
    expect(result).toEqual({
      action_source: { type: 'tool', box_id: 'box-001', tool_id: 'tool-001' },
      actions: [{ parameters: { param1: 'value1' } }],
    });
  });

  it('reads a null action source and no actions as an empty answer (case 14)', async () => {
    oq.setHandler((_request, response) => sendJson(response, 200, { action_source: null, actions: [] }));
    const result = await asAccount(() => kn.queryActions('kn-001', 'at-001', [{ id: 'obj-001' }]));
    expect(result).toEqual({ actions: [] });
    expect(JSON.parse(oq.requests[0].body)).toEqual({ _instance_identities: [{ id: 'obj-001' }] });
  });

  it('resolves logic properties with dynamic_params taken from the inputs', async () => {
    bkn.setHandler((_request, response) =>
      sendJson(response, 200, {
        entries: [
          {
            id: 'ot_order',
            name: 'Order',
            logic_properties: [
              {
                name: 'revenue',
                type: 'metric',
                parameters: [{ name: 'start', type: 'integer', value_from: 'input' }],
              },
            ],
          },
        ],
      }),
    );
    oq.setHandler((_request, response) => sendJson(response, 200, { datas: [{ id: 'o-1', revenue: 42 }] }));
    const result = await asAccount(() =>
      kn.resolveLogicProperties('kn-001', 'ot_order', {
        _instance_identities: [{ id: 'o-1' }],
        properties: ['revenue'],
        inputs: { start: 1700000000000, unrelated: true },
      }),
    );
    expect(result).toEqual({ datas: [{ id: 'o-1', revenue: 42 }] });
    expect(bkn.requests[0].url).toBe(`${BKN}/kn-001/object-types/ot_order?include_detail=true`);
    expect(oq.requests[0].url).toBe(`${OQ}/kn-001/object-types/ot_order/properties`);
    expectSearchPost(oq.requests[0]);
    expect(JSON.parse(oq.requests[0].body)).toEqual({
      _instance_identities: [{ id: 'o-1' }],
      properties: ['revenue'],
      dynamic_params: { revenue: { start: 1700000000000 } },
    });
  });

  it('refuses unknown logic properties and unknown object types before calling ontology-query', async () => {
    bkn.setHandler((_request, response) =>
      sendJson(response, 200, { entries: [{ id: 'ot_order', name: 'Order', logic_properties: [] }] }),
    );
    const unknownProperty = (await failureOf(() =>
      kn.resolveLogicProperties('kn-001', 'ot_order', { _instance_identities: [{ id: 'o-1' }], properties: ['nope'] }),
    )) as AppException;
    expect(unknownProperty.status).toBe(400);
    expect(unknownProperty.definition.code).toBe('agentRetrieval.BadRequest.LogicPropertyNotFound');

    bkn.setHandler((_request, response) => sendJson(response, 200, { entries: [] }));
    const unknownType = (await failureOf(() =>
      kn.resolveLogicProperties('kn-001', 'ot_x', { _instance_identities: [], properties: ['revenue'] }),
    )) as AppException;
    expect(unknownType.status).toBe(404);
    expect(unknownType.details).toBe('object type ot_x not found in knowledge network kn-001');
    expect(oq.requests).toHaveLength(0);
  });

  it('passes a BKN error body through with BKN status (case 20)', async () => {
    bkn.setHandler((_request, response) => sendJson(response, 404, CASE_20_BODY));
    const error = await failureOf(() => kn.exportSchema('kn-001'));
    expect(error).toBeInstanceOf(PassThroughException);
    const presented = presenter.present(error, 'en-US');
    expect(presented.status).toBe(404);
    expect(JSON.stringify(presented.body)).toBe(
      '{"code":"BknBackend.KnowledgeNetwork.NotFound","description":"knowledge network not found","solution":"check kn_id","link":"https://example.com/bkn-error","details":{"kn_id":"kn-001"}}',
    );
  });

  it('passes BKN errors through for concept search too', async () => {
    bkn.setHandler((_request, response) =>
      sendJson(response, 403, { ...CASE_20_BODY, error_code: 'BknBackend.Forbidden' }),
    );
    const error = (await failureOf(() =>
      kn.searchConcepts('kn-001', { query: 'q', concept_types: ['object_type'], limit: 3 }),
    )) as PassThroughException;
    expect(error.status).toBe(403);
    expect(error.body.code).toBe('BknBackend.Forbidden');
  });

  it('turns a BKN 404 with an empty body into Public.NotFound naming the path only', async () => {
    bkn.setHandler((_request, response) => {
      response.writeHead(404);
      response.end();
    });
    const error = await failureOf(() => kn.exportSchema('kn-404'));
    const presented = presenter.present(error, 'en-US');
    expect(presented.status).toBe(404);
    expect(presented.body.code).toBe('Public.NotFound');
    expect(presented.body.details).toBe(
      `[BknBackendAccess] request not found, [${BKN}/kn-404?include_detail=true&mode=export]`,
    );
    expect(JSON.stringify(presented.body)).not.toContain('127.0.0.1');
  });

  it('turns an ontology-query 500 into our 502 body without the upstream body', async () => {
    oq.setHandler((_request, response) =>
      sendJson(response, 500, {
        error_code: 'OQ.Internal',
        description: 'boom',
        error_details: { dsn: 'postgres://secret@db' },
      }),
    );
    const error = await failureOf(() => kn.queryInstances('kn-001', 'ot_order', { limit: 1 }));
    const presented = presenter.present(error, 'en-US');
    expect(presented.status).toBe(502);
    expect(presented.body).toEqual({
      code: 'agentRetrieval.BadGateway.OntologyQueryFailed',
      description: 'The ontology-query service failed',
      solution: 'Retry later; check the ontology-query service and its logs',
      link: 'None',
      details: 'ontology-query answered HTTP 500: OQ.Internal: boom',
    });
  });

  it('keeps an ontology-query 404 a 404', async () => {
    oq.setHandler((_request, response) =>
      sendJson(response, 404, { error_code: 'OQ.NotFound', description: 'no such type' }),
    );
    const error = (await failureOf(() => kn.queryActions('kn-001', 'at-x', []))) as AppException;
    expect(error.status).toBe(404);
    expect(error.definition.code).toBe('agentRetrieval.NotFound.OntologyQueryNotFound');
  });

  it('answers 504 when ontology-query never answers within ONTOLOGY_QUERY_TIMEOUT_MS', async () => {
    oq.setHandler(() => undefined);
    const error = (await failureOf(() => kn.querySubgraph('kn-001', []))) as AppException;
    expect(error).toBeInstanceOf(AppException);
    expect(error.status).toBe(504);
    expect(error.definition.code).toBe('agentRetrieval.GatewayTimeout.UpstreamTimeout');
  });

  it('keeps hostile ids inside one encoded path segment and refuses dot segments and slashes', async () => {
    oq.setHandler((_request, response) => sendJson(response, 200, { datas: [] }));
    await asAccount(() => kn.queryInstances('admin?x=1', 'ot?x=1#frag', { limit: 1 }));
    expect(oq.requests[0].url).toBe(
      `${OQ}/admin%3Fx%3D1/object-types/ot%3Fx%3D1%23frag?include_type_info=false&include_logic_params=false`,
    );
    const dots = (await failureOf(() => kn.queryActions('..', 'at-1', []))) as AppException;
    expect(dots.status).toBe(400);
    const climb = (await failureOf(() => kn.queryInstances('../../admin', 'ot', { limit: 1 }))) as AppException;
    expect(climb.status).toBe(400);
    expect(climb.details).toBe('kn_id must be a single path segment (no "/" or "\\")');
    expect(oq.requests).toHaveLength(1);
  });

  it('counts upstream calls by upstream and outcome in /metrics', async () => {
    const metrics = await (await fetch(`${app.url}/metrics`)).text();
    expect(metrics).toMatch(/agent_retrieval_upstream_calls_total\{upstream="ontology-query",outcome="ok"\} [1-9]/);
    expect(metrics).toMatch(
      /agent_retrieval_upstream_calls_total\{upstream="ontology-query",outcome="timeout"\} [1-9]/,
    );
    expect(metrics).toMatch(/agent_retrieval_upstream_calls_total\{upstream="bkn-backend",outcome="error"\} [1-9]/);
  });
});

describe('KWeaver knowledge network with nothing listening (e2e)', () => {
  let app: TestApp;

  beforeAll(async () => {
    const gone = new HttpPeer(() => undefined);
    const url = await gone.start();
    await gone.stop();
    app = await startTestApp({ KN_BACKEND: 'kweaver', BKN_BACKEND_URL: url, ONTOLOGY_QUERY_URL: url });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('answers 502 for both upstreams', async () => {
    const kn = app.app.get(KnowledgeNetworkPort);
    for (const call of [() => kn.listNetworks(), () => kn.queryActions('kn-001', 'at-1', [])]) {
      const error = (await failureOf(call)) as AppException;
      expect(error).toBeInstanceOf(AppException);
      expect(error.status).toBe(502);
      expect(error.definition.code).toBe('agentRetrieval.BadGateway.UpstreamUnreachable');
    }
  });
});
