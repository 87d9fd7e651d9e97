import { ObjectType } from '../knowledge-network/knowledge-network.types';
import { parseQuerySet } from './query-set';
import { resolveLabels, TypeRows } from './relevance-labels';

const drug: ObjectType = {
  id: 'drug',
  name: '药品',
  primary_keys: ['id'],
  display_key: 'name',
  logic_properties: [],
  data_properties: ['id', 'name', 'indication'].map((name) => ({ name, type: 'string', condition_operations: [] })),
};
const DATA = new Map<string, TypeRows>([
  [
    'drug',
    {
      type: drug,
      rows: [
        { id: 'D1', name: '盐酸二甲双胍缓释片', indication: '2型糖尿病' },
        { id: 'D2', name: '格列美脲片', indication: '2型糖尿病，可与二甲双胍联用' },
        { id: 'D3', name: 'Aspirin', indication: 'pain' },
      ],
    },
  ],
]);

describe('relevance labels', () => {
  it('grades each selected instance by the highest rule that selects it', () => {
    const labels = resolveLabels(
      [
        { type: 'drug', grade: 3, field: 'name', contains: '二甲双胍' },
        { type: 'drug', grade: 1, text: '二甲双胍' },
        { type: 'drug', grade: 2, field: 'name', equals: 'aspirin' },
      ],
      DATA,
    );
    expect(Object.fromEntries(labels)).toEqual({ 'drug:D1': 3, 'drug:D2': 1, 'drug:D3': 2 });
  });

  it('selects by primary key and by every word across text properties', () => {
    expect([...resolveLabels([{ type: 'drug', grade: 2, ids: ['D3'] }], DATA).keys()]).toEqual(['drug:D3']);
    const both = resolveLabels([{ type: 'drug', grade: 3, textAll: ['格列美脲', '二甲双胍'] }], DATA);
    expect([...both.keys()]).toEqual(['drug:D2']);
  });

  it('refuses a rule that names an unknown type or field', () => {
    expect(() => resolveLabels([{ type: 'dose', grade: 1, text: 'x' }], DATA)).toThrow('"dose"');
    expect(() => resolveLabels([{ type: 'drug', grade: 1, field: 'price', equals: '1' }], DATA)).toThrow('"price"');
  });

  it('names the first problem of a malformed query file', () => {
    const query = { id: 'q', kind: 'exact', query: 'x', concepts: ['drug'] };
    expect(() => parseQuerySet({ network: 'kn', queries: [{ ...query, kind: 'vague' }] })).toThrow(/^queries\.0\.kind/);
    expect(() => parseQuerySet({ network: 'kn', queries: [query, query] })).toThrow('id "q" is used twice');
    const twoSelectors = { type: 'drug', grade: 1, text: 'x', ids: ['D1'] };
    expect(() => parseQuerySet({ network: 'kn', queries: [{ ...query, relevant: [twoSelectors] }] })).toThrow(
      'exactly one of',
    );
  });
});
