import { AppException } from '../common/errors/app.exception';
import { InputLimits } from '../common/limits/input-limits';
import { KnowledgeNetworkPort } from '../knowledge-network/knowledge-network.port';
import { ConceptHit, KnSchema, ObjectType, RelationType } from '../knowledge-network/knowledge-network.types';
import { testConfig } from '../../test/support/unit/config';
import { mockPort } from '../../test/support/unit/mocks';
import { KnSearchService, parseAdditionalContext } from './knsearch.service';

const LIMITS = new InputLimits(testConfig().limits);

const objectType = (id: string): ObjectType => ({
  id,
  name: id,
  data_properties: [{ name: 'name', type: 'string', condition_operations: ['==', 'match'] }],
  logic_properties: [],
  primary_keys: ['name'],
  display_key: 'name',
});
const relation = (id: string, source: string, target: string): RelationType => ({
  id,
  name: id,
  source_object_type_id: source,
  target_object_type_id: target,
});
const SCHEMA: KnSchema = {
  id: 'kn',
  name: 'kn',
  object_types: ['ot_1', 'ot_2', 'ot_3'].map(objectType),
  relation_types: [
    relation('rt_1', 'ot_1', 'ot_2'),
    relation('rt_2', 'ot_2', 'ot_3'),
    relation('rt_3', 'ot_3', 'ot_1'),
  ],
  action_types: [{ id: 'at_1', name: 'at_1', object_type_id: 'ot_3', parameters: [] }],
  concept_groups: [],
};

/** A port answering from SCHEMA, with concept hits and instances given per test. */
function fakePort(hits: ConceptHit[] = []): jest.Mocked<KnowledgeNetworkPort> {
  return mockPort(KnowledgeNetworkPort, {
    exportSchema: async () => SCHEMA,
    searchConcepts: async () => hits,
    queryInstances: async () => ({ datas: [] }),
    queryInstanceBatch: KnowledgeNetworkPort.prototype.queryInstanceBatch,
    querySubgraph: async () => ({ entries: [] }),
    resolveLogicProperties: async () => ({ datas: [] }),
  });
}

const details = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    await promise;
  } catch (error) {
    return (error as AppException).details;
  }
  return undefined;
};

describe('KnSearchService', () => {
  // kn_id and query reach the service resolved and validated: kn-id.spec.ts and required-text.spec.ts.
  it('says exactly what is missing: the search scope', async () => {
    const service = new KnSearchService(fakePort(), LIMITS);
    const scope = {
      include_object_types: false,
      include_relation_types: false,
      include_action_types: false,
    };
    expect(await details(service.semanticSearch({ kn_id: 'kn', query: 'x', search_scope: scope }))).toBe(
      'search_scope must enable at least one concept type',
    );
  });

  it('keeps the endpoints of the best relation first, even beyond top_k', async () => {
    const hit: ConceptHit = {
      concept_type: 'relation_type',
      id: 'rt_2',
      name: 'rt_2',
      score: 1,
      detail: SCHEMA.relation_types[1],
    };
    const service = new KnSearchService(fakePort([hit]), LIMITS);
    const response = await service.knSearch({
      kn_id: 'kn',
      query: 'x',
      only_schema: true,
      retrieval_config: { concept_retrieval: { top_k: 1 } },
    });
    expect(response.relation_types.map((r) => r.concept_id)).toEqual(['rt_2']);
    expect(response.object_types.map((o) => o.concept_id)).toEqual(['ot_2', 'ot_3']);
    expect(response.action_types).toEqual([
      expect.objectContaining({ id: 'at_1', object_type_name: 'ot_3', kn_id: 'kn' }),
    ]);
    expect(response.nodes).toBeUndefined();
  });

  it('asks each selected object type for text matches and reports when none match', async () => {
    const port = fakePort();
    const response = await new KnSearchService(port, LIMITS).knSearch({ kn_id: 'kn', query: '张三' });
    expect(port.queryInstances).toHaveBeenCalledWith('kn', 'ot_1', {
      condition: {
        operation: 'or',
        sub_conditions: [
          { operation: 'match', field: '*', value: '张三', value_from: 'const' },
          { operation: '==', field: 'name', value: '张三', value_from: 'const' },
        ],
      },
      limit: 50,
      shortlist: { first: 5, named: '张三' },
    });
    expect(response).toMatchObject({ nodes: [], message: '未检索到符合条件的实例数据' });
  });

  it('parses input parameters from additional_context', () => {
    expect(parseAdditionalContext('{"function":"max","days":7}')).toEqual({
      function: 'max',
      days: 7,
    });
    expect(parseAdditionalContext('only free text')).toEqual({});
    expect(parseAdditionalContext(undefined)).toEqual({});
    expect(() => parseAdditionalContext('{not json')).toThrow(AppException);
  });

  it('validates logic-property requests before calling the port', async () => {
    const port = fakePort();
    const service = new KnSearchService(port, LIMITS);
    const base = {
      kn_id: 'kn',
      ot_id: 'ot_1',
      query: 'q',
      _instance_identities: [{ name: 'a' }],
      properties: ['p'],
    };
    expect(await details(service.resolveLogicProperties({ ...base, _instance_identities: [] }))).toContain(
      '_instance_identities',
    );
    expect(await details(service.resolveLogicProperties({ ...base, properties: [] }))).toContain('properties');
    await service.resolveLogicProperties({ ...base, additional_context: '{"window":"7d"}' });
    expect(port.resolveLogicProperties).toHaveBeenCalledWith('kn', 'ot_1', {
      _instance_identities: [{ name: 'a' }],
      properties: ['p'],
      inputs: { window: '7d' },
    });
  });
});
