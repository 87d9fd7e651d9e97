import { ActionCondition } from '../knowledge-network/knowledge-network.types';
import { describeCondition, propertyConditionHolds } from './condition-evaluation';

const holds = (operation: string, actual: unknown, value?: unknown): boolean =>
  propertyConditionHolds({ field: 'f', operation, value } as ActionCondition, actual);

describe('condition evaluation', () => {
  it('exist / not_exist test for a non-empty value', () => {
    expect([holds('exist', 'x'), holds('exist', 0), holds('exist', ''), holds('exist', null)]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect([holds('not_exist', undefined), holds('not_exist', 'x')]).toEqual([true, false]);
  });

  it('compares numbers as numbers, even when the instance value is CSV text', () => {
    expect(holds('>', '10', 9)).toBe(true);
    expect(holds('<', '10', 9)).toBe(false);
    expect(holds('>=', 3, '3')).toBe(true);
    expect(holds('==', '7.0', 7)).toBe(true);
    expect(holds('range', '5', [1, 10])).toBe(true);
    expect(holds('range', 11, [1, 10])).toBe(false);
  });

  it('compares other values as text (ISO dates order correctly)', () => {
    expect(holds('<', '2025-01-02', '2025-10-01')).toBe(true);
    expect(holds('==', true, 'true')).toBe(true);
    expect(holds('!=', 'Available', 'Degraded')).toBe(true);
  });

  it('treats an empty value as failing every comparison but != and not_in', () => {
    expect(['==', '>', '<', '>=', '<=', 'in'].map((op) => holds(op, null, op === 'in' ? ['a'] : 'a'))).toEqual(
      Array(6).fill(false),
    );
    expect(holds('range', null, [1, 2])).toBe(false);
    expect([holds('!=', null, 'a'), holds('not_in', '', ['a'])]).toEqual([true, true]);
  });

  it('in / not_in test membership', () => {
    expect(holds('in', 'Degraded', ['Degraded', 'Unavailable'])).toBe(true);
    expect(holds('in', 'Available', ['Degraded', 'Unavailable'])).toBe(false);
    expect(holds('not_in', 'Available', ['Degraded', 'Unavailable'])).toBe(true);
    expect(holds('in', '2', [1, 2])).toBe(true);
  });

  it('names a condition the way refusals quote it', () => {
    expect(
      describeCondition({ object_type_id: 'deployment', field: 'status', operation: 'in', value: ['A', 'B'] }),
    ).toBe('deployment.status in ["A","B"]');
    expect(describeCondition({ relation_type_id: 'r', operation: 'exist' })).toBe('relation:r exist');
  });
});
