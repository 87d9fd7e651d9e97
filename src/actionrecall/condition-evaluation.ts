import { ActionCondition } from '../knowledge-network/knowledge-network.types';

type Comparable = [number, number] | [string, string];

const present = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

const asText = (value: unknown): string =>
  typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);

/** Numbers compare as numbers (CSV values arrive as text), anything else as text (ISO dates sort as text). */
function comparable(actual: unknown, expected: unknown): Comparable {
  const a = asNumber(actual);
  const b = asNumber(expected);
  return a !== undefined && b !== undefined ? [a, b] : [asText(actual), asText(expected)];
}

function equals(actual: unknown, expected: unknown): boolean {
  const [a, b] = comparable(actual, expected);
  return a === b;
}

function compare(actual: unknown, expected: unknown, operation: string): boolean {
  if (!present(actual)) return false;
  const [a, b] = comparable(actual, expected);
  if (operation === '>') return a > b;
  if (operation === '<') return a < b;
  if (operation === '>=') return a >= b;
  return a <= b;
}

/**
 * Whether a property condition holds for an instance's value. `exist` means a non-empty value; `!=` and
 * `not_in` hold for an empty value; every other comparison fails on it. The condition is assumed valid
 * (`actionConditionProblem` returned nothing).
 */
export function propertyConditionHolds(condition: ActionCondition, actual: unknown): boolean {
  const { operation, value } = condition;
  const list = Array.isArray(value) ? value : [];
  switch (operation) {
    case 'exist':
      return present(actual);
    case 'not_exist':
      return !present(actual);
    case '==':
      return present(actual) && equals(actual, value);
    case '!=':
      return !present(actual) || !equals(actual, value);
    case 'in':
      return present(actual) && list.some((item) => equals(actual, item));
    case 'not_in':
      return !present(actual) || !list.some((item) => equals(actual, item));
    case 'range':
      return compare(actual, list[0], '>=') && compare(actual, list[1], '<=');
    default:
      return compare(actual, value, operation);
  }
}

/** How a condition reads in a refusal: `status in ["Degraded","Unavailable"]`, `relation:patient_diagnosed_with exist`. */
export function describeCondition(condition: ActionCondition): string {
  const subject = condition.field ?? `relation:${condition.relation_type_id}`;
  const value = condition.value === undefined ? '' : ` ${JSON.stringify(condition.value)}`;
  return `${condition.object_type_id ? `${condition.object_type_id}.` : ''}${subject} ${condition.operation}${value}`;
}
