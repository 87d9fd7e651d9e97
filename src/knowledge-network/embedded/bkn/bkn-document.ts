import MarkdownIt from 'markdown-it';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { BknFormatError } from './bkn-format.error';
import { COLUMNS, ColumnName, DEFINITION_HEADINGS, DefinitionKind, normalizeName } from './bkn-vocabulary';

type Token = ReturnType<MarkdownIt['parse']>[number];

export interface BknLine {
  text: string;
  line: number;
}

export interface BknTableRow {
  line: number;
  cells: Partial<Record<ColumnName, string>>;
}

export interface BknTable {
  line: number;
  /** Recognised columns (English or Chinese header), in header order. */
  columns: (ColumnName | undefined)[];
  rows: BknTableRow[];
}

export interface BknSection {
  title: string;
  line: number;
  lines: BknLine[];
  tables: BknTable[];
  codeBlocks: BknLine[];
  subsections: BknSection[];
}

/** A `.bkn` file split into frontmatter, its `##` definition and `###` sections, every part with its line. */
export interface BknDocument {
  file: string;
  frontmatter: Record<string, unknown>;
  /** Line of each top-level frontmatter key, for messages about its value. */
  frontmatterLines: Record<string, number>;
  title?: BknLine;
  definition?: { kind: DefinitionKind; name: string; line: number };
  /** Free text under the `#`/`##` heading before the first `###` section. */
  description: string[];
  sections: BknSection[];
}

const FRONTMATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
const markdown = new MarkdownIt({ html: false });

function cleanCell(text: string): string {
  return text
    .trim()
    .replace(/^`(.*)`$/, '$1')
    .trim();
}

interface Frontmatter {
  data: Record<string, unknown>;
  lines: Record<string, number>;
  body: string;
  offset: number;
}

/** Top-level `key:` lines of the frontmatter block (which starts on file line 2). */
function keyLines(yaml: string): Record<string, number> {
  const lines: Record<string, number> = {};
  yaml.split(/\r?\n/).forEach((line, index) => {
    const key = /^([^\s#:][^:]*):/.exec(line)?.[1].trim();
    if (key !== undefined && lines[key] === undefined) lines[key] = index + 2;
  });
  return lines;
}

function readFrontmatter(file: string, text: string): Frontmatter {
  const found = FRONTMATTER.exec(text);
  if (!found) throw new BknFormatError(file, 1, 'missing YAML frontmatter (a block between --- lines)');
  let data: unknown;
  try {
    data = parseYaml(found[1]);
  } catch (error) {
    const line = error instanceof YAMLParseError ? (error.linePos?.[0]?.line ?? 1) + 1 : 2;
    const reason = (error as Error).message.split('\n')[0];
    throw new BknFormatError(file, line, `invalid YAML frontmatter: ${reason}`);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    throw new BknFormatError(file, 2, 'frontmatter must be a YAML mapping');
  }
  const offset = found[0].split('\n').length - (found[0].endsWith('\n') ? 1 : 0);
  return {
    data: data as Record<string, unknown>,
    lines: keyLines(found[1]),
    body: text.slice(found[0].length),
    offset,
  };
}

/** Reads one `.bkn` file's structure; knows nothing about object or relation semantics. */
export class BknDocumentReader {
  read(file: string, text: string): BknDocument {
    const { data, lines, body, offset } = readFrontmatter(file, text);
    const document: BknDocument = { file, frontmatter: data, frontmatterLines: lines, description: [], sections: [] };
    const tokens = markdown.parse(body, {});
    const lineOf = (token: Token): number => offset + (token.map?.[0] ?? 0) + 1;
    let section: BknSection | undefined;
    let target: BknSection | undefined;
    // Free text belongs to the description only under `#` or a `## Kind: name` heading (not `## Network Overview`).
    let describing = true;
    for (let index = 0; index < tokens.length; index++) {
      const token = tokens[index];
      if (token.type === 'heading_open') {
        const title = cleanCell(tokens[index + 1].content);
        const level = Number(token.tag.slice(1));
        const line = lineOf(token);
        if (level <= 2) {
          section = target = undefined;
          if (level === 1) document.title = { text: title, line };
          describing = level === 1 || this.readDefinitionHeading(document, title, line);
        } else if (level === 3) {
          section = target = this.newSection(title, line);
          document.sections.push(section);
        } else if (section) {
          target = this.newSection(title, line);
          section.subsections.push(target);
        }
        index += 2;
      } else if (token.type === 'table_open') {
        const { table, end } = this.readTable(tokens, index, lineOf);
        index = end;
        target?.tables.push(table);
      } else if (token.type === 'inline') {
        const lines = token.content.split('\n').map((text, i) => ({ text: text.trim(), line: lineOf(token) + i }));
        if (target) target.lines.push(...lines);
        else if (describing) document.description.push(...lines.map((entry) => entry.text));
      } else if (token.type === 'fence' || token.type === 'code_block') {
        target?.codeBlocks.push({ text: token.content, line: lineOf(token) + 1 });
      }
    }
    return document;
  }

  private newSection(title: string, line: number): BknSection {
    return { title, line, lines: [], tables: [], codeBlocks: [], subsections: [] };
  }

  private readDefinitionHeading(document: BknDocument, title: string, line: number): boolean {
    const split = /^([^:：]+)[:：]\s*(.*)$/.exec(title);
    const kind = split ? DEFINITION_HEADINGS.get(normalizeName(split[1])) : undefined;
    if (!kind || !split) return false;
    document.definition ??= { kind, name: split[2].trim(), line };
    return true;
  }

  private readTable(
    tokens: Token[],
    start: number,
    lineOf: (token: Token) => number,
  ): { table: BknTable; end: number } {
    const table: BknTable = { line: lineOf(tokens[start]), columns: [], rows: [] };
    let row: string[] | undefined;
    let rowLine = table.line;
    let inHead = false;
    let index = start + 1;
    for (; index < tokens.length && tokens[index].type !== 'table_close'; index++) {
      const token = tokens[index];
      if (token.type === 'thead_open') inHead = true;
      else if (token.type === 'thead_close') inHead = false;
      else if (token.type === 'tr_open') {
        row = [];
        rowLine = lineOf(token);
      } else if (token.type === 'inline' && row) row.push(cleanCell(token.content));
      else if (token.type === 'tr_close' && row) {
        if (inHead) table.columns = row.map((header) => COLUMNS.get(normalizeName(header)));
        else table.rows.push({ line: rowLine, cells: this.cellsOf(table.columns, row) });
        row = undefined;
      }
    }
    return { table, end: index };
  }

  private cellsOf(columns: (ColumnName | undefined)[], values: string[]): Partial<Record<ColumnName, string>> {
    const cells: Partial<Record<ColumnName, string>> = {};
    columns.forEach((column, position) => {
      if (column && cells[column] === undefined) cells[column] = values[position] ?? '';
    });
    return cells;
  }
}
