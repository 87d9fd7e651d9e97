import { BoundParameter, ValueFrom } from '../../knowledge-network.types';
import { BknTable } from './bkn-document';
import { BknSections } from './bkn-sections';

const VALUE_FROM: ReadonlySet<string> = new Set(['property', 'input', 'const']);

function typedConst(value: string, type: string): unknown {
  const kind = type.toLowerCase();
  if (['integer', 'int', 'number', 'float', 'double', 'decimal'].includes(kind) && Number.isFinite(Number(value))) {
    return Number(value);
  }
  if (kind === 'boolean' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  if ((kind === 'array' || kind === 'object' || kind === 'json') && /^[[{]/.test(value)) {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}

/**
 * Reads a parameter binding table in either layout: `Parameter | Type | Source | Binding | Description`
 * (BKN 2) or the older `Name | Type | Source | Operation | ValueFrom | Value | Description`, where
 * ValueFrom (or Source when ValueFrom is empty) says property/input/const and Value holds the binding.
 */
export function readParameterTable(sections: BknSections, table: BknTable): BoundParameter[] {
  const legacy = table.columns.includes('value_from') || table.columns.includes('value');
  return table.rows.map((row) => {
    const cells = row.cells;
    const name = (cells.parameter ?? cells.name ?? '').trim();
    if (!name) throw sections.error(row.line, 'parameter row has no name');
    const declaredFrom = (legacy ? cells.value_from || cells.source : cells.source)?.trim().toLowerCase() ?? '';
    if (!VALUE_FROM.has(declaredFrom)) {
      throw sections.error(
        row.line,
        `parameter "${name}": source must be property, input or const (found "${declaredFrom}")`,
      );
    }
    const valueFrom = declaredFrom as ValueFrom;
    const type = (cells.type ?? 'string').trim() || 'string';
    const binding = (legacy ? cells.value : cells.binding)?.trim() ?? '';
    if (valueFrom === 'property' && (!binding || binding === '-')) {
      throw sections.error(row.line, `parameter "${name}" is bound to a property but names none`);
    }
    const parameter: BoundParameter = { name, type, value_from: valueFrom };
    if (valueFrom === 'property') parameter.value = binding;
    if (valueFrom === 'const') parameter.value = typedConst(binding, type);
    if (cells.description) parameter.comment = cells.description;
    return parameter;
  });
}
