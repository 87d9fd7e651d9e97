import { AppException } from '../errors/app.exception';
import { LocalizedDetails } from '../errors/localized-details';
import { checkIdentifier, InputLimits, MAX_ID_LENGTH } from './input-limits';
import { testConfig } from '../../../test/support/unit/config';

const limits = new InputLimits(testConfig().limits);
const small = new InputLimits(
  testConfig({
    MAX_TEXT_LENGTH: '10',
    MAX_SEARCH_TERMS: '3',
    MAX_CONDITION_DEPTH: '2',
    MAX_CONDITION_NODES: '4',
    MAX_IN_LIST: '2',
    MAX_SUBGRAPH_PATHS: '2',
    MAX_SUBGRAPH_HOPS: '1',
    MAX_INSTANCE_IDENTITIES: '2',
  }).limits,
);

/** The LocalizedDetails a call was refused with, or undefined when it passed. */
function refusal(check: () => void): LocalizedDetails | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(AppException);
    expect((error as AppException).definition.code).toBe('agentRetrieval.BadRequest.LimitExceeded');
    return (error as AppException).details as LocalizedDetails;
  }
}

describe('InputLimits', () => {
  it('has the documented defaults', () => {
    expect(refusal(() => limits.text('query', 'x'.repeat(2000)))).toBeUndefined();
    expect(refusal(() => limits.text('query', 'x'.repeat(2001)))).toEqual(
      new LocalizedDetails('validation.maxLength', { field: 'query', limit: 2000 }),
    );
    const terms = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    expect(refusal(() => limits.searchText('query', terms(32)))).toBeUndefined();
    expect(refusal(() => limits.searchText('query', terms(33)))?.key).toBe('validation.searchTerms');
  });

  it('counts characters as code points, so 2,000 emoji fit', () => {
    expect(refusal(() => limits.text('query', '😀'.repeat(2000)))).toBeUndefined();
    expect(refusal(() => limits.text('query', '😀'.repeat(2001)))?.key).toBe('validation.maxLength');
  });

  it('counts distinct words after segmentation, not characters or repeats', () => {
    expect(refusal(() => small.searchText('query', 'x y x y'))).toBeUndefined();
    expect(refusal(() => small.searchText('query', '糖尿病治疗方案'))).toBeUndefined();
    expect(refusal(() => small.searchText('query', '糖尿病治疗方案患者'))).toEqual(
      new LocalizedDetails('validation.searchTerms', { field: 'query', limit: 3 }),
    );
  });

  it('bounds a condition tree: depth, node count, in lists and leaf text', () => {
    const leaf = { operation: '==', field: 'a', value: 'x' };
    expect(
      refusal(() => small.condition('condition', { operation: 'and', sub_conditions: [leaf, leaf] })),
    ).toBeUndefined();
    const deep = { operation: 'and', sub_conditions: [{ operation: 'or', sub_conditions: [leaf] }] };
    expect(refusal(() => small.condition('condition', deep))).toEqual(
      new LocalizedDetails('validation.depth', { field: 'condition', limit: 2 }),
    );
    const wide = { operation: 'and', sub_conditions: Array(1000000).fill(leaf) };
    expect(refusal(() => small.condition('condition', wide))?.key).toBe('validation.conditionNodes');
    expect(refusal(() => small.condition('condition', { operation: 'in', field: 'a', value: [1, 2, 3] }))).toEqual(
      new LocalizedDetails('validation.arrayMaxSize', { field: 'condition.value', limit: 2 }),
    );
    const longLeaf = { operation: 'and', sub_conditions: [{ operation: 'like', field: 'a', value: 'x'.repeat(11) }] };
    expect(refusal(() => small.condition('condition', longLeaf))?.args.field).toBe('condition.sub_conditions[0].value');
    expect(refusal(() => small.condition('condition', { operation: 'match', field: '*', value: 'a b c d' }))?.key).toBe(
      'validation.searchTerms',
    );
  });

  it('leaves malformed shapes to the adapter that knows them', () => {
    expect(refusal(() => small.condition('condition', 'not a condition'))).toBeUndefined();
    expect(
      refusal(() => small.relationTypePaths('relation_type_paths', [null, { object_types: 'x' }])),
    ).toBeUndefined();
  });

  it('bounds subgraph paths: count, hops and each step condition', () => {
    const step = { id: 'a' };
    expect(
      refusal(() => small.relationTypePaths('relation_type_paths', [{ object_types: [step, step] }])),
    ).toBeUndefined();
    expect(refusal(() => small.relationTypePaths('relation_type_paths', Array(3).fill({})))).toEqual(
      new LocalizedDetails('validation.arrayMaxSize', { field: 'relation_type_paths', limit: 2 }),
    );
    expect(
      refusal(() => small.relationTypePaths('relation_type_paths', [{ object_types: [step, step, step] }])),
    ).toEqual(new LocalizedDetails('validation.hops', { field: 'relation_type_paths[0]', limit: 1 }));
    const inList = { id: 'a', condition: { operation: 'in', field: 'x', value: [1, 2, 3] } };
    expect(refusal(() => small.relationTypePaths('p', [{ object_types: [step, inList] }]))?.args.field).toBe(
      'p[0].object_types[1].condition.value',
    );
  });

  it('bounds _instance_identities', () => {
    expect(refusal(() => small.instanceIdentities('_instance_identities', [{}, {}]))).toBeUndefined();
    expect(refusal(() => small.instanceIdentities('_instance_identities', [{}, {}, {}]))).toEqual(
      new LocalizedDetails('validation.arrayMaxSize', { field: '_instance_identities', limit: 2 }),
    );
  });

  it('bounds ids at a fixed 256 characters', () => {
    expect(MAX_ID_LENGTH).toBe(256);
    expect(refusal(() => checkIdentifier('ot_id', 'o'.repeat(256)))).toBeUndefined();
    expect(refusal(() => checkIdentifier('ot_id', 'o'.repeat(257)))).toEqual(
      new LocalizedDetails('validation.maxLength', { field: 'ot_id', limit: 256 }),
    );
  });
});
