import { AppException } from '../common/errors/app.exception';
import { BRIEF_NODES_PER_PAGE, briefKnSearch } from './kn-search-brief';
import { KnSearchNode, KnSearchResponse } from './knsearch.types';

const node = (index: number): KnSearchNode => ({
  object_type_id: 'drug',
  object_type_name: '药品',
  instance_name: `药品${index}`,
  unique_identities: { drug_id: `DRG${index}` },
  properties: { drug_id: `DRG${index}`, drug_name: `药品${index}`, indication: `适应症${index}` },
  score: 0.912345,
});

function answer(nodes: number): KnSearchResponse {
  return {
    object_types: [
      {
        concept_type: 'object_type',
        concept_id: 'drug',
        concept_name: '药品',
        comment: '药品目录',
        primary_keys: ['drug_id'],
        data_properties: [{ name: 'drug_id', condition_operations: ['=='] }, { name: 'drug_name' }],
        logic_properties: [],
      },
    ],
    relation_types: [
      {
        concept_id: 'diagnosis_treated_by_drug',
        concept_name: '诊断推荐用药',
        source_object_type_id: 'diagnosis',
        target_object_type_id: 'drug',
        comment: 'x',
      },
    ],
    action_types: [{ id: 'create_prescription', name: '开具处方', object_type_id: 'patient', comment: 'x', tags: [] }],
    nodes: Array.from({ length: nodes }, (_, index) => node(index)),
  };
}

describe('briefKnSearch', () => {
  it('keeps the ids that link the types and each node’s facts, its key and name said once', () => {
    const brief = briefKnSearch(answer(1), undefined);
    expect(brief).toEqual({
      object_types: [{ concept_id: 'drug', concept_name: '药品', data_properties: ['drug_id', 'drug_name'] }],
      relation_types: [
        { concept_id: 'diagnosis_treated_by_drug', source_object_type_id: 'diagnosis', target_object_type_id: 'drug' },
      ],
      action_types: [{ id: 'create_prescription', name: '开具处方', object_type_id: 'patient' }],
      nodes: [
        {
          object_type_id: 'drug',
          instance_name: '药品0',
          _instance_identity: { drug_id: 'DRG0' },
          properties: { indication: '适应症0' },
        },
      ],
      total_nodes: 1,
    });
  });

  it('pages the nodes with a cursor; a later page carries only nodes, the last no cursor', () => {
    const total = BRIEF_NODES_PER_PAGE * 2 + 1;
    const first = briefKnSearch(answer(total), undefined);
    expect(first.nodes).toHaveLength(BRIEF_NODES_PER_PAGE);
    const second = briefKnSearch(answer(total), first.next_cursor as string);
    expect(second.object_types).toEqual([]);
    expect((second.nodes as { instance_name: string }[])[0].instance_name).toBe(`药品${BRIEF_NODES_PER_PAGE}`);
    const last = briefKnSearch(answer(total), second.next_cursor as string);
    expect(last.nodes).toHaveLength(1);
    expect(last).not.toHaveProperty('next_cursor');
    expect(last.total_nodes).toBe(total);
  });

  it.each(['nope', Buffer.from('nodes:-1').toString('base64url'), Buffer.from('nodes:99999').toString('base64url')])(
    'refuses the cursor %s as a 400 naming the cursor',
    (cursor) => {
      expect(() => briefKnSearch(answer(3), cursor)).toThrow(AppException);
      expect(() => briefKnSearch(answer(3), cursor)).toThrow(/cursor/);
    },
  );

  it('answers without nodes (only_schema) without node fields', () => {
    const schemaOnly = { ...answer(0), nodes: undefined };
    expect(briefKnSearch(schemaOnly, undefined)).not.toHaveProperty('nodes');
  });
});
