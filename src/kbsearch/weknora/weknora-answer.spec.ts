import { readAnswer, toResult } from './weknora-answer';

describe('readAnswer', () => {
  it("reads WeKnora's own {success, data[]}", () => {
    expect(readAnswer({ success: true, data: [{ id: 'c1' }] })).toEqual({ items: [{ id: 'c1' }] });
  });

  it("reads seed 003 §6.1's {results[], total_count}", () => {
    expect(readAnswer({ results: [{ id: 'c1' }], total_count: 25 })).toEqual({ items: [{ id: 'c1' }], totalCount: 25 });
  });

  it.each([-1, 1.5, '25', Number.MAX_VALUE, null])('ignores a total_count of %p', (total) => {
    expect(readAnswer({ results: [], total_count: total })).toEqual({ items: [] });
  });

  it.each([
    ['no list', { success: true }],
    ['a failure', { success: false, data: [] }],
    ['data that is no list', { data: { results: [] } }],
    ['not an object', [{ id: 'c1' }]],
    ['nothing', undefined],
  ])('refuses %s', (_what, body) => {
    expect(readAnswer(body)).toBeUndefined();
  });
});

describe('toResult', () => {
  it('maps integer and named match types, clamps the score', () => {
    expect(toResult({ id: 'a', score: 1.7, match_type: 1 })).toMatchObject({
      id: 'a',
      score: 1,
      match_type: 'keyword',
    });
    expect(toResult({ id: 'b', score: 0.85, match_type: 'hybrid' })).toMatchObject({
      score: 0.85,
      match_type: 'hybrid',
    });
    expect(toResult({ match_type: -1 }).match_type).toBe('hybrid');
    expect(toResult({ match_type: 1.5 }).match_type).toBe('hybrid');
    expect(toResult({ match_type: 'embedding' }).match_type).toBe('vector');
  });
});
