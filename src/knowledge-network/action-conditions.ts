import { ACTION_CONDITION_OPERATIONS, ActionCondition } from './knowledge-network.types';

const OPERATIONS: ReadonlySet<string> = new Set(ACTION_CONDITION_OPERATIONS);

export const isConditionScalar = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

const scalarList = (value: unknown, length?: number): boolean =>
  Array.isArray(value) &&
  value.length > 0 &&
  (length === undefined || value.length === length) &&
  value.every(isConditionScalar);

/**
 * What is wrong with an action condition, or undefined when it can be evaluated. One rule for the BKN
 * parser (a file:line error) and for execute_action (conditions from KWeaver arrive unchecked).
 */
export function actionConditionProblem(condition: ActionCondition): string | undefined {
  const { operation, value, field, relation_type_id: relation } = condition;
  if (!OPERATIONS.has(operation)) {
    return `unknown condition operation "${operation}" (use ${ACTION_CONDITION_OPERATIONS.join(' ')})`;
  }
  if (!field === !relation) {
    return 'a condition checks either a property (Check / field) or a relation (relation:<relation_type_id>)';
  }
  const existence = operation === 'exist' || operation === 'not_exist';
  if (relation && !existence) return `a relation check supports exist and not_exist only (found "${operation}")`;
  if (existence) return value === undefined ? undefined : `"${operation}" takes no value`;
  if (value === undefined || value === null) return `"${operation}" needs a value`;
  if (operation === 'in' || operation === 'not_in') {
    return scalarList(value) ? undefined : `"${operation}" needs a list of values, e.g. [a, b]`;
  }
  if (operation === 'range') return scalarList(value, 2) ? undefined : '"range" needs [min, max]';
  return isConditionScalar(value) ? undefined : `"${operation}" compares with one value, not a list or mapping`;
}
