import { MetricType } from '../../knowledge-network.types';
import { BknDocument } from './bkn-document';
import { ParsedMetricType } from './bkn-definitions';
import { BknSections } from './bkn-sections';

const SCOPE_TYPES = new Set(['object_type', 'network']);

/**
 * `metrics/*.bkn` (`type: metric`): frontmatter `metric_type`, `scope_type` (object_type | network),
 * `scope_ref`, optional `unit`, `unit_type`, `time_dimension`; the body's `### Calculation Formula`
 * (a code block or text; or frontmatter `calculation_formula`) and an optional `### Analysis Dimensions`
 * table `Name | Display Name | Description`.
 */
export class MetricTypeParser {
  parse(document: BknDocument): ParsedMetricType {
    const sections = new BknSections(document);
    sections.expectType('metric');
    const id = sections.id();
    const scopeType = sections.text('scope_type') ?? 'network';
    if (!SCOPE_TYPES.has(scopeType)) {
      throw sections.error(1, `frontmatter "scope_type" must be object_type or network (found "${scopeType}")`);
    }
    const scopeRef = sections.text('scope_ref') ?? (scopeType === 'network' ? '' : undefined);
    if (scopeRef === undefined) throw sections.error(1, 'frontmatter "scope_ref" must name the object type');
    const metric: MetricType = {
      id,
      name: sections.name(),
      metric_type: sections.text('metric_type') ?? 'atomic',
      scope_type: scopeType,
      scope_ref: scopeRef,
      calculation_formula: this.formula(sections),
    };
    const comment = sections.description();
    if (comment) metric.comment = comment;
    for (const key of ['unit_type', 'unit', 'time_dimension'] as const) {
      const value = sections.text(key);
      if (value) metric[key] = value;
    }
    const dimensions = this.dimensions(sections);
    if (dimensions.length > 0) metric.analysis_dimensions = dimensions;
    return { metric, origin: { file: document.file, line: document.definition?.line ?? 1 } };
  }

  private formula(sections: BknSections): string {
    const section = sections.find('calculation_formula');
    const text = section
      ? section.codeBlocks.map((block) => block.text).join('\n') || section.lines.map((line) => line.text).join('\n')
      : (sections.text('calculation_formula') ?? '');
    const formula = text.trim();
    if (formula === '') {
      throw sections.error(section?.line ?? 1, 'a metric needs "### Calculation Formula" (or calculation_formula)');
    }
    return formula;
  }

  private dimensions(sections: BknSections): NonNullable<MetricType['analysis_dimensions']> {
    const section = sections.find('analysis_dimensions');
    if (!section) return [];
    const table = sections.table(section, ['name'], 'Name | Display Name | Description');
    return table.rows
      .filter((row) => (row.cells.name?.trim() ?? '') !== '')
      .map((row) => {
        const dimension: { name: string; display_name?: string; comment?: string } = { name: row.cells.name!.trim() };
        if (row.cells.display_name?.trim()) dimension.display_name = row.cells.display_name.trim();
        if (row.cells.description?.trim()) dimension.comment = row.cells.description.trim();
        return dimension;
      });
  }
}
