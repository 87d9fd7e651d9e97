import { BknDocument, BknSection, BknTable } from './bkn-document';
import { BknFormatError } from './bkn-format.error';
import { ColumnName, normalizeName, SECTIONS, SectionName } from './bkn-vocabulary';

/** Section and table lookups shared by the per-kind parsers, each failing with file:line. */
export class BknSections {
  constructor(readonly document: BknDocument) {}

  get file(): string {
    return this.document.file;
  }

  find(name: SectionName): BknSection | undefined {
    return this.document.sections.find((section) => SECTIONS.get(normalizeName(section.title)) === name);
  }

  require(name: SectionName, english: string): BknSection {
    const section = this.find(name);
    if (!section) throw this.error(this.document.definition?.line ?? 1, `missing section "### ${english}"`);
    return section;
  }

  /** The section's first table, checked to carry the given columns. */
  table(section: BknSection, required: ColumnName[], english: string): BknTable {
    const table = section.tables[0];
    if (!table) throw this.error(section.line, `section "${section.title}" needs a table (${english})`);
    const missing = required.filter((column) => !table.columns.includes(column));
    if (missing.length > 0) {
      throw this.error(
        table.line,
        `table in "${section.title}" lacks column(s) ${missing.join(', ')} (expected ${english})`,
      );
    }
    return table;
  }

  error(line: number, problem: string): BknFormatError {
    return new BknFormatError(this.file, line, problem);
  }

  text(key: string): string | undefined {
    const value = this.document.frontmatter[key];
    if (value === undefined || value === null) return undefined;
    return String(value).trim() || undefined;
  }

  tags(): string[] {
    const tags = this.document.frontmatter.tags;
    return Array.isArray(tags) ? tags.map((tag) => String(tag)).filter((tag) => tag !== '') : [];
  }

  /** id from frontmatter; mandatory in every definition file. */
  id(): string {
    const id = this.text('id');
    if (!id) throw this.error(1, 'frontmatter has no "id"');
    return id;
  }

  name(): string {
    return this.text('name') ?? this.document.definition?.name ?? this.id();
  }

  description(): string | undefined {
    const text = this.document.description.filter((line) => line !== '').join('\n');
    return text === '' ? undefined : text;
  }

  expectType(expected: string): void {
    const type = this.text('type');
    if (type !== expected) {
      throw this.error(
        2,
        `frontmatter "type" must be "${expected}" in this folder (found ${type ? `"${type}"` : 'none'})`,
      );
    }
  }
}
