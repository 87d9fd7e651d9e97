import { ObjectType } from '../knowledge-network/knowledge-network.types';
import { TEXT_TYPES } from '../knowledge-network/embedded/property-types';
import { Judgements } from './retrieval-metrics';
import { LabelRule } from './query-set';

/** One object type's instances as loaded from its data file. */
export interface TypeRows {
  type: ObjectType;
  rows: readonly Record<string, unknown>[];
}

/** How an instance is named in labels and results: `<object type id>:<primary key values joined by |>`. */
export function instanceKey(type: ObjectType, values: Record<string, unknown>): string {
  return `${type.id}:${type.primary_keys.map((key) => String(values[key] ?? '')).join('|')}`;
}

const list = (value: string | string[] | undefined): string[] =>
  (value === undefined ? [] : Array.isArray(value) ? value : [value]).map((item) => item.toLowerCase());
const cell = (row: Record<string, unknown>, name: string): string =>
  row[name] === undefined || row[name] === null ? '' : String(row[name]).toLowerCase();

/**
 * Applies a query's rules to the network's data: every instance a rule selects gets the rule's grade,
 * the highest when several select it. Matching ignores letter case. An unknown type or field is an error,
 * so a typo in a query file cannot silently label nothing.
 */
export function resolveLabels(rules: readonly LabelRule[], data: ReadonlyMap<string, TypeRows>): Judgements {
  const grades = new Map<string, number>();
  for (const rule of rules) {
    const table = data.get(rule.type);
    if (!table) throw new Error(`rule names object type "${rule.type}", which the network does not have`);
    const selects = selector(rule, table.type);
    for (const row of table.rows) {
      if (!selects(row)) continue;
      const key = instanceKey(table.type, row);
      grades.set(key, Math.max(grades.get(key) ?? 0, rule.grade));
    }
  }
  return grades;
}

function selector(rule: LabelRule, type: ObjectType): (row: Record<string, unknown>) => boolean {
  if (rule.ids) {
    const ids = new Set(rule.ids);
    return (row) => ids.has(type.primary_keys.map((key) => String(row[key] ?? '')).join('|'));
  }
  if (rule.field !== undefined) {
    const field = rule.field;
    if (!type.data_properties.some((property) => property.name === field))
      throw new Error(`rule names field "${field}", which object type "${type.id}" does not have`);
    const equals = list(rule.equals);
    const contains = list(rule.contains);
    return (row) => {
      const value = cell(row, field);
      return equals.includes(value) || contains.some((part) => value.includes(part));
    };
  }
  const fields = type.data_properties.filter((property) => TEXT_TYPES.has(property.type)).map((p) => p.name);
  const joined = (row: Record<string, unknown>): string => fields.map((field) => cell(row, field)).join('\n');
  if (rule.textAll) {
    const every = list(rule.textAll);
    return (row) => every.every((part) => joined(row).includes(part));
  }
  const texts = list(rule.text);
  return (row) => texts.some((part) => joined(row).includes(part));
}
