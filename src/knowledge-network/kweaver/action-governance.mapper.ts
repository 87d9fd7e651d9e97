import { ActionCondition, ActionType } from '../knowledge-network.types';
import { asRecord, asText, compact, JsonRecord } from './json-readers';

type Governance = Pick<
  ActionType,
  'enabled' | 'risk_level' | 'requires_approval' | 'trigger_condition' | 'pre_conditions'
>;

const RISK_LEVELS: ReadonlySet<string> = new Set(['low', 'medium', 'high']);
// An upstream condition tree deeper than this is not a condition an author wrote: it is refused whole.
const MAX_NESTING = 8;

const asBoolean = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);

/**
 * The execute_action fields of a bkn-backend action type, when it carries them: `enabled`, `risk_level`,
 * `requires_approval`, the trigger condition (`trigger_condition`, or BKN's `condition` tree) and
 * `pre_conditions`. Conditions are kept as sent (an `and` tree flattened): one this service cannot
 * evaluate is refused at execution, never skipped.
 */
export function mapActionGovernance(record: JsonRecord): Governance {
  const risk = asText(record.risk_level)?.toLowerCase();
  return compact({
    enabled: asBoolean(record.enabled),
    risk_level: risk && RISK_LEVELS.has(risk) ? (risk as Governance['risk_level']) : undefined,
    requires_approval: asBoolean(record.requires_approval),
    trigger_condition: mapConditions(record.trigger_condition ?? record.condition),
    pre_conditions: mapConditions(record.pre_conditions),
  });
}

function mapConditions(value: unknown): ActionCondition[] | undefined {
  if (value === undefined || value === null) return undefined;
  const conditions = (Array.isArray(value) ? value : [value]).flatMap((entry) => flatten(entry, 0));
  return conditions.length > 0 ? conditions : undefined;
}

function flatten(entry: unknown, depth: number): ActionCondition[] {
  const record = asRecord(entry);
  // Unreadable entries become a condition with no operation, which the evaluator refuses (fails closed).
  if (!record || depth > MAX_NESTING) return [{ operation: '' }];
  const operation = typeof record.operation === 'string' ? record.operation.trim().toLowerCase() : '';
  if (operation === 'and' && Array.isArray(record.sub_conditions)) {
    return record.sub_conditions.flatMap((child) => flatten(child, depth + 1));
  }
  return [
    compact({
      object_type_id: asText(record.object_type_id),
      field: asText(record.field),
      relation_type_id: asText(record.relation_type_id),
      operation,
      value: record.value ?? undefined,
      message: asText(record.message),
    }),
  ];
}
