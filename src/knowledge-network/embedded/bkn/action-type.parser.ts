import { ActionSource, ActionType } from '../../knowledge-network.types';
import { ActionConditionReader } from './action-condition.parser';
import { BknDocument } from './bkn-document';
import { ParsedActionType } from './bkn-definitions';
import { BknSections } from './bkn-sections';
import { readParameterTable } from './parameter-table';

const RISK_LEVELS: ReadonlySet<string> = new Set(['low', 'medium', 'high']);

/**
 * `### Bound Object`, `### Tool Configuration` (or the older `### Action Source`), `### Parameter Binding`,
 * `### Trigger Condition` / `### Pre-conditions`, and the frontmatter's `enabled`, `risk_level` and
 * `requires_approval`.
 */
export class ActionTypeParser {
  parse(document: BknDocument): ParsedActionType {
    const sections = new BknSections(document);
    sections.expectType('action_type');
    const bound = sections.require('bound_object', 'Bound Object');
    const row = sections.table(bound, ['bound_object'], 'Bound Object | Action Type').rows[0];
    const objectTypeId = row?.cells.bound_object?.trim();
    if (!row || !objectTypeId) throw sections.error(bound.line, 'Bound Object table needs an object type id');
    const type: ActionType = {
      id: sections.id(),
      name: sections.name(),
      comment: sections.description(),
      tags: sections.tags(),
      object_type_id: objectTypeId,
      parameters: this.parameters(sections),
    };
    const actionKind = row.cells.action_type?.trim() || sections.text('action_type');
    if (actionKind) type.action_type = actionKind;
    const source = this.source(sections);
    if (source) type.action_source = source;
    this.governance(sections, type);
    return {
      type,
      origin: { file: document.file, line: document.definition?.line ?? 1 },
      boundLine: row.line,
    };
  }

  private source(sections: BknSections): ActionSource | undefined {
    const section = sections.find('tool_configuration') ?? sections.find('action_source');
    if (!section) return undefined;
    const row = sections.table(section, ['type'], 'Type | Toolbox ID | Tool ID or Type | MCP ID | Tool Name').rows[0];
    if (!row) throw sections.error(section.line, `"${section.title}" table has no row`);
    const kind = row.cells.type?.trim().toLowerCase() ?? '';
    const source: ActionSource = { type: kind };
    const pick = (value: string | undefined): string | undefined => (value?.trim() ? value.trim() : undefined);
    if (kind === 'tool') {
      source.box_id = pick(row.cells.box_id);
      source.tool_id = pick(row.cells.tool_id);
      if (!source.box_id || !source.tool_id)
        throw sections.error(row.line, 'a tool source needs Toolbox ID and Tool ID');
    } else if (kind === 'mcp') {
      source.mcp_id = pick(row.cells.mcp_id);
      source.tool_name = pick(row.cells.tool_name);
      if (!source.mcp_id || !source.tool_name)
        throw sections.error(row.line, 'an mcp source needs MCP ID and Tool Name');
    }
    return source;
  }

  /** What execute_action enforces: the frontmatter flags and the conditions on the bound instance. */
  private governance(sections: BknSections, type: ActionType): void {
    const enabled = this.flag(sections, 'enabled');
    if (enabled !== undefined) type.enabled = enabled;
    const risk = sections.document.frontmatter.risk_level;
    if (risk !== undefined && risk !== null) {
      const level = String(risk).trim().toLowerCase();
      if (!RISK_LEVELS.has(level)) {
        throw sections.error(
          this.keyLine(sections, 'risk_level'),
          `frontmatter "risk_level" must be low, medium or high (found "${String(risk)}")`,
        );
      }
      type.risk_level = level as ActionType['risk_level'];
    }
    const approval = this.flag(sections, 'requires_approval');
    if (approval !== undefined) type.requires_approval = approval;
    const conditions = new ActionConditionReader(sections, type.object_type_id);
    const trigger = sections.find('trigger_condition');
    if (trigger) type.trigger_condition = conditions.read(trigger);
    const pre = sections.find('pre_conditions');
    if (pre) type.pre_conditions = conditions.read(pre);
  }

  private flag(sections: BknSections, key: string): boolean | undefined {
    const value = sections.document.frontmatter[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean') {
      throw sections.error(
        this.keyLine(sections, key),
        `frontmatter "${key}" must be true or false (found ${JSON.stringify(value)})`,
      );
    }
    return value;
  }

  private keyLine(sections: BknSections, key: string): number {
    return sections.document.frontmatterLines[key] ?? 1;
  }

  private parameters(sections: BknSections): ActionType['parameters'] {
    const section = sections.find('parameter_binding');
    const table = section?.tables[0];
    return section && table ? readParameterTable(sections, table) : [];
  }
}
