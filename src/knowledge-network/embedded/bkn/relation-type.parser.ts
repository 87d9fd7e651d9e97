import { RelationType } from '../../knowledge-network.types';
import { BknDocument } from './bkn-document';
import { DirectMapping, ParsedRelationType, ViewMapping } from './bkn-definitions';
import { BknSections } from './bkn-sections';

/** `### Endpoint` plus `### Mapping Rules` (direct) or the view mapping sections (data_view). */
export class RelationTypeParser {
  parse(document: BknDocument): ParsedRelationType {
    const sections = new BknSections(document);
    sections.expectType('relation_type');
    const endpoint = sections.require('endpoint', 'Endpoint');
    const row = sections.table(endpoint, ['source', 'target'], 'Source | Target | Type').rows[0];
    if (!row) throw sections.error(endpoint.line, 'Endpoint table has no row');
    const source = row.cells.source?.trim();
    const target = row.cells.target?.trim();
    if (!source || !target) throw sections.error(row.line, 'Endpoint needs both Source and Target object type ids');
    const kind = (row.cells.type?.trim().toLowerCase() || 'direct') as string;
    if (kind !== 'direct' && kind !== 'data_view') {
      throw sections.error(row.line, `Endpoint type must be direct or data_view (found "${kind}")`);
    }
    const type: RelationType = {
      id: sections.id(),
      name: sections.name(),
      comment: sections.description(),
      tags: sections.tags(),
      source_object_type_id: source,
      target_object_type_id: target,
      type: kind,
    };
    const mapping = kind === 'direct' ? this.direct(sections) : this.view(sections);
    return {
      type,
      mapping,
      origin: { file: document.file, line: document.definition?.line ?? 1 },
      endpointLine: row.line,
    };
  }

  private direct(sections: BknSections): DirectMapping {
    const section = sections.require('mapping_rules', 'Mapping Rules');
    const table = sections.table(section, ['source_property', 'target_property'], 'Source Property | Target Property');
    const pairs = table.rows.map((row) => ({
      source: row.cells.source_property?.trim() ?? '',
      target: row.cells.target_property?.trim() ?? '',
      line: row.line,
    }));
    if (pairs.length === 0) throw sections.error(table.line, 'Mapping Rules table has no row');
    const blank = pairs.find((pair) => !pair.source || !pair.target);
    if (blank) throw sections.error(blank.line, 'mapping rule needs both Source Property and Target Property');
    return { kind: 'direct', pairs };
  }

  private view(sections: BknSections): ViewMapping {
    const viewSection = sections.require('mapping_view', 'Mapping View');
    const viewRow = sections.table(viewSection, ['id'], 'Type | ID').rows[0];
    if (!viewRow?.cells.id) throw sections.error(viewSection.line, 'Mapping View needs a view ID');
    const sourceSection = sections.require('source_mapping', 'Source Mapping');
    const targetSection = sections.require('target_mapping', 'Target Mapping');
    const sourceTable = sections.table(
      sourceSection,
      ['source_property', 'view_property'],
      'Source Property | View Property',
    );
    const targetTable = sections.table(
      targetSection,
      ['view_property', 'target_property'],
      'View Property | Target Property',
    );
    const source = sourceTable.rows.map((row) => ({
      objectProperty: row.cells.source_property?.trim() ?? '',
      viewProperty: row.cells.view_property?.trim() ?? '',
      line: row.line,
    }));
    const target = targetTable.rows.map((row) => ({
      viewProperty: row.cells.view_property?.trim() ?? '',
      objectProperty: row.cells.target_property?.trim() ?? '',
      line: row.line,
    }));
    if (source.length === 0) throw sections.error(sourceTable.line, 'Source Mapping table has no row');
    if (target.length === 0) throw sections.error(targetTable.line, 'Target Mapping table has no row');
    return {
      kind: 'data_view',
      viewId: viewRow.cells.id.trim(),
      line: viewRow.line,
      source,
      target,
    };
  }
}
