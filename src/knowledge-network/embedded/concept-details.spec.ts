import { KnSchema } from '../knowledge-network.types';
import { withConceptDetails } from './network-store';

const schema = {
  object_types: [{ id: 'patient', name: 'Patient' }],
  relation_types: [{ id: 'treats', name: 'Treats' }],
  action_types: [{ id: 'notify', name: 'Notify' }],
} as unknown as KnSchema;

describe('withConceptDetails', () => {
  it('adds each ranked concept its definition from the schema, in ConceptHit field order', () => {
    const hits = withConceptDetails(schema, [
      { concept_type: 'relation_type', id: 'treats', name: 'Treats', score: 2, score_channels: { keyword: 1 } },
      { concept_type: 'object_type', id: 'patient', name: 'Patient', score: 1 },
      { concept_type: 'action_type', id: 'notify', name: 'Notify', score: 0.5 },
    ]);
    expect(hits.map((hit) => hit.detail)).toEqual([
      schema.relation_types[0],
      schema.object_types[0],
      schema.action_types[0],
    ]);
    expect(JSON.stringify(hits[0])).toBe(
      '{"concept_type":"relation_type","id":"treats","name":"Treats","score":2,' +
        '"detail":{"id":"treats","name":"Treats"},"score_channels":{"keyword":1}}',
    );
  });

  it('leaves out a concept the schema does not define (ranked by an index a reload swapped in)', () => {
    const hits = withConceptDetails(schema, [
      { concept_type: 'object_type', id: 'gone', name: 'Gone', score: 3 },
      { concept_type: 'object_type', id: 'patient', name: 'Patient', score: 1 },
    ]);
    expect(hits.map((hit) => hit.id)).toEqual(['patient']);
  });
});
