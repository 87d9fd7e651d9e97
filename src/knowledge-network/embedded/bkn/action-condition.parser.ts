import { parse as parseYaml, YAMLParseError } from 'yaml';
import { actionConditionProblem } from '../../action-conditions';
import { ActionCondition } from '../../knowledge-network.types';
import { BknLine, BknSection, BknTableRow } from './bkn-document';
import { BknSections } from './bkn-sections';

const RELATION_PREFIX = 'relation:';
const TABLE_LAYOUT = 'Object | Check | Condition | Message';

/** One check as written, before it is validated: the table row or YAML mapping it came from, normalised. */
interface RawCheck {
  object?: unknown;
  check: unknown;
  relation?: unknown;
  operation: string;
  value?: unknown;
  message?: unknown;
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string => (value === undefined || value === null ? '' : String(value).trim());

/** `== active`, `>= 3`, `in [a, b]`, `exist`: the operator, then the rest of the cell. */
function splitCondition(cell: string): { operation: string; rest: string } {
  const symbolic = /^(==|!=|>=|<=|>|<)\s*([\s\S]*)$/.exec(cell);
  if (symbolic) return { operation: symbolic[1], rest: symbolic[2].trim() };
  const word = /^(\S+)\s*([\s\S]*)$/.exec(cell);
  return { operation: (word?.[1] ?? '').toLowerCase(), rest: (word?.[2] ?? '').trim() };
}

/** `in` / `not_in` take a list; a single value, or `a, b` written without brackets, becomes one. */
function listValue(operation: string, value: unknown): unknown {
  if ((operation !== 'in' && operation !== 'not_in') || Array.isArray(value)) return value;
  return typeof value === 'string' ? value.split(/[,，]/).map((item) => item.trim()) : [value];
}

/** A value written in a table cell: YAML flow syntax (`[a, b]`, `3`, `"x y"`), else the text itself. */
function cellValue(rest: string): unknown {
  if (rest === '') return undefined;
  try {
    return parseYaml(rest) as unknown;
  } catch {
    return rest;
  }
}

/**
 * Reads an action type's `### Trigger Condition` and `### Pre-conditions`: a table
 * `Object | Check | Condition | Message` (Check = a property name or `relation:<relation_type_id>`,
 * Condition = an operator and its value) and/or YAML blocks (`condition:` / `conditions:` holding
 * `{object_type_id, field | relation_type_id, operation, value, message}`, `and` nesting allowed).
 * Every check must hold; each problem is a BknFormatError on its line.
 */
export class ActionConditionReader {
  constructor(
    private readonly sections: BknSections,
    private readonly boundObjectTypeId: string,
  ) {}

  read(section: BknSection): ActionCondition[] {
    const table = section.tables[0];
    const fromTable = table
      ? this.sections.table(section, ['check'], TABLE_LAYOUT).rows.map((row) => this.fromRow(row))
      : [];
    const fromYaml = section.codeBlocks.flatMap((block) => this.fromYaml(block));
    const conditions = [...fromTable, ...fromYaml];
    if (conditions.length === 0) {
      throw this.sections.error(
        section.line,
        `section "${section.title}" needs a table (${TABLE_LAYOUT}) or a YAML block`,
      );
    }
    return conditions;
  }

  private fromRow(row: BknTableRow): ActionCondition {
    const cells = row.cells;
    const written = text(cells.condition) || [text(cells.operation), text(cells.value)].join(' ').trim();
    const { operation, rest } = splitCondition(written);
    const raw: RawCheck = { object: cells.object, check: cells.check, operation, message: cells.message };
    if (rest !== '') raw.value = cellValue(rest);
    return this.build(raw, row.line);
  }

  private fromYaml(block: BknLine): ActionCondition[] {
    let data: unknown;
    try {
      data = parseYaml(block.text);
    } catch (error) {
      const offset = error instanceof YAMLParseError ? (error.linePos?.[0]?.line ?? 1) - 1 : 0;
      const reason = (error as Error).message.split('\n')[0];
      throw this.sections.error(block.line + offset, `invalid YAML condition: ${reason}`);
    }
    const root =
      isMapping(data) && ('condition' in data || 'conditions' in data) ? (data.condition ?? data.conditions) : data;
    return (Array.isArray(root) ? root : [root]).flatMap((entry) => this.fromMapping(entry, block.line));
  }

  private fromMapping(entry: unknown, line: number): ActionCondition[] {
    if (!isMapping(entry)) throw this.sections.error(line, 'a condition must be a mapping {field, operation, value}');
    const operation = text(entry.operation).toLowerCase();
    if (operation === 'and') {
      const children = Array.isArray(entry.sub_conditions) ? entry.sub_conditions : [];
      if (children.length === 0) throw this.sections.error(line, '"and" needs sub_conditions');
      return children.flatMap((child) => this.fromMapping(child, line));
    }
    if (operation === 'or') {
      throw this.sections.error(line, '"or" is not supported: every listed check must hold');
    }
    const raw: RawCheck = {
      object: entry.object_type_id ?? entry.object,
      check: entry.field,
      relation: entry.relation_type_id,
      operation,
      message: entry.message,
    };
    if (entry.value !== undefined && entry.value !== null) raw.value = entry.value;
    return [this.build(raw, line)];
  }

  private build(raw: RawCheck, line: number): ActionCondition {
    const object = text(raw.object);
    if (object !== '' && object !== this.boundObjectTypeId) {
      throw this.sections.error(
        line,
        `condition on object type "${object}": only the bound object type "${this.boundObjectTypeId}" can be checked`,
      );
    }
    const check = text(raw.check);
    const isRelation = check.startsWith(RELATION_PREFIX);
    const relation = text(raw.relation) || (isRelation ? check.slice(RELATION_PREFIX.length).trim() : '');
    const condition: ActionCondition = { object_type_id: this.boundObjectTypeId, operation: raw.operation };
    if (check !== '' && !isRelation) condition.field = check;
    if (relation !== '') condition.relation_type_id = relation;
    if (raw.value !== undefined) condition.value = listValue(raw.operation, raw.value);
    const message = text(raw.message);
    if (message) condition.message = message;
    const problem = actionConditionProblem(condition);
    if (problem) throw this.sections.error(line, problem);
    return condition;
  }
}
