import { DataProperty, LogicProperty, ObjectType } from '../../knowledge-network.types';
import { canonicalType, operationsForType } from '../property-types';
import { BknDocument, BknSection } from './bkn-document';
import { ParsedObjectType } from './bkn-definitions';
import { BknSections } from './bkn-sections';
import { KEY_LINES, LOGIC_FIELDS, normalizeName } from './bkn-vocabulary';
import { readParameterTable } from './parameter-table';

const splitList = (text: string): string[] =>
  text
    .split(/[,，、]/)
    .map((item) => item.trim())
    .filter((item) => item !== '' && item !== '-');

/** `### Data Properties`, `### Keys`, `### Logic Properties` and `### Data Source` of an object type file. */
export class ObjectTypeParser {
  parse(document: BknDocument): ParsedObjectType {
    const sections = new BknSections(document);
    sections.expectType('object_type');
    const properties = this.dataProperties(sections);
    const keys = this.keys(sections, properties);
    const type: ObjectType = {
      id: sections.id(),
      name: sections.name(),
      comment: sections.description(),
      tags: sections.tags(),
      data_properties: properties,
      logic_properties: this.logicProperties(sections),
      primary_keys: keys.primary,
      display_key: keys.display,
    };
    const source = this.dataSource(sections);
    if (source) type.data_source = source;
    return { type, origin: { file: document.file, line: document.definition?.line ?? 1 } };
  }

  private dataProperties(sections: BknSections): DataProperty[] {
    const section = sections.require('data_properties', 'Data Properties');
    const table = sections.table(section, ['name', 'type'], 'Name | Display Name | Type | Description | Mapped Field');
    const seen = new Set<string>();
    return table.rows.map((row) => {
      const name = row.cells.name?.trim() ?? '';
      if (!name) throw sections.error(row.line, 'data property row has no Name');
      if (seen.has(name)) throw sections.error(row.line, `data property "${name}" is declared twice`);
      seen.add(name);
      const declared = row.cells.type ?? '';
      const type = canonicalType(declared);
      if (!type) throw sections.error(row.line, `unknown data type "${declared}" for property "${name}"`);
      const property: DataProperty = {
        name,
        type,
        condition_operations: operationsForType(type, false),
      };
      if (row.cells.display_name) property.display_name = row.cells.display_name;
      if (row.cells.description) property.comment = row.cells.description;
      if (row.cells.mapped_field) property.mapped_field = row.cells.mapped_field;
      return property;
    });
  }

  private keys(sections: BknSections, properties: DataProperty[]): { primary: string[]; display?: string } {
    const section = sections.find('keys');
    const found: Partial<Record<string, { values: string[]; line: number }>> = {};
    for (const entry of section?.lines ?? []) {
      const split = /^[-*\s]*([^:：]+)[:：](.*)$/.exec(entry.text);
      const key = split ? KEY_LINES.get(normalizeName(split[1])) : undefined;
      if (key && split) found[key] = { values: splitList(split[2].replace(/`/g, '')), line: entry.line };
    }
    const known = new Set(properties.map((property) => property.name));
    const primary = found.primary_keys;
    if (!primary || primary.values.length === 0) {
      throw sections.error(
        section?.line ?? sections.document.definition?.line ?? 1,
        'no "Primary Keys:" declared in ### Keys',
      );
    }
    for (const key of primary.values) {
      if (!known.has(key)) throw sections.error(primary.line, `primary key "${key}" is not a data property`);
    }
    const display = found.display_key?.values[0];
    if (display && !known.has(display)) {
      throw sections.error(found.display_key!.line, `display key "${display}" is not a data property`);
    }
    return { primary: primary.values, display: display ?? primary.values[0] };
  }

  private logicProperties(sections: BknSections): LogicProperty[] {
    const section = sections.find('logic_properties');
    return (section?.subsections ?? []).map((subsection) => this.logicProperty(sections, subsection));
  }

  private logicProperty(sections: BknSections, section: BknSection): LogicProperty {
    const fields: Partial<Record<string, string>> = {};
    for (const entry of section.lines) {
      const split = /^[-*\s]*([^:：]+)[:：](.*)$/.exec(entry.text);
      const field = split ? LOGIC_FIELDS.get(normalizeName(split[1])) : undefined;
      if (field && split) fields[field] = split[2].replace(/[`*]/g, '').trim();
    }
    const type = (fields.type ?? 'operator').toLowerCase();
    const property: LogicProperty = {
      name: section.title,
      type,
      parameters: section.tables[0] ? readParameterTable(sections, section.tables[0]) : [],
    };
    if (fields.display) property.display_name = fields.display;
    if (fields.description) property.comment = fields.description;
    if (fields.source) {
      const source = /^(\S+)\s*(?:[(（]\s*([^)）]+)\s*[)）])?/.exec(fields.source);
      if (source) property.data_source = { type: source[2]?.trim() ?? type, id: source[1] };
    }
    return property;
  }

  private dataSource(sections: BknSections): ObjectType['data_source'] {
    const row = sections.find('data_source')?.tables[0]?.rows[0];
    if (!row?.cells.id) return undefined;
    const source = {
      type: row.cells.type || 'data_view',
      id: row.cells.id,
      name: row.cells.name || undefined,
    };
    return source.name ? source : { type: source.type, id: source.id };
  }
}
