import { conceptSearchBody, mergeConceptHits } from './concept-search.query';

describe('concept search query', () => {
  it('builds the standard knn+match OR body ranked by _score', () => {
    const body = conceptSearchBody({ query: '订单', concept_types: ['object_type'], limit: 20 });
    expect(JSON.parse(JSON.stringify(body))).toEqual({
      condition: {
        operation: 'or',
        sub_conditions: [
          { field: '*', operation: 'knn', value: '订单', value_from: 'const', limit_key: 'k', limit_value: 20 },
          { field: '*', operation: 'match', value: '订单', value_from: 'const' },
        ],
      },
      sort: [{ field: '_score', direction: 'desc' }],
      limit: 20,
      need_total: false,
    });
    expect('concept_groups' in body).toBe(false);
  });

  it('omits empty concept groups and normalises the rest', () => {
    expect(
      'concept_groups' in conceptSearchBody({ query: 'q', concept_types: [], limit: 1, concept_groups: [' ', ''] }),
    ).toBe(false);
    const body = conceptSearchBody({
      query: 'q',
      concept_types: [],
      limit: 1,
      concept_groups: [' supply_chain ', 'supply_chain', '', 'finance'],
    });
    expect(body.concept_groups).toEqual(['supply_chain', 'finance']);
  });

  it('merges answers by score, keeps the best duplicate, and cuts to the limit', () => {
    const hits = mergeConceptHits(
      [
        {
          conceptType: 'object_type',
          body: {
            entries: [
              { id: 'ot_a', name: 'A', _score: 0.4 },
              { id: 'ot_b', name: 'B', _score: 0.9 },
              { id: 'ot_a', name: 'A', _score: 0.5 },
            ],
          },
        },
        {
          conceptType: 'relation_type',
          body: {
            entries: [
              { id: 'ot_a', name: 'rel named like an object', _score: 0.7 },
              { name: 'no id', _score: 1 },
            ],
          },
        },
        { conceptType: 'action_type', body: { entries: [{ id: 'at_1', name: 'Act', object_type_id: 'ot_a' }] } },
      ],
      3,
    );
    expect(hits.map((hit) => [hit.concept_type, hit.id, hit.score])).toEqual([
      ['object_type', 'ot_b', 0.9],
      ['relation_type', 'ot_a', 0.7],
      ['object_type', 'ot_a', 0.5],
    ]);
    expect(hits[0].detail).toMatchObject({ id: 'ot_b', name: 'B', data_properties: [] });
  });

  it('reads a missing or malformed answer as no hits', () => {
    expect(
      mergeConceptHits(
        [
          { conceptType: 'object_type', body: undefined },
          { conceptType: 'action_type', body: 'x' },
        ],
        5,
      ),
    ).toEqual([]);
  });
});
