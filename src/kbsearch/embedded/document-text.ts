/**
 * A document file as lines of text with Markdown-style headings, whatever its format: Markdown as
 * written (front matter removed), plain text as written, HTML reduced to its text with `<h1>`…`<h6>`
 * turned into `#` headings. The title is the front matter's `title`, the `<title>`/first `<h1>`, the
 * first `#` heading or the first non-blank line, in that order.
 */
export interface DocumentText {
  title?: string;
  lines: string[];
  /** 1-based line in the file of `lines[0]` (after front matter). */
  firstLine: number;
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

export type DocumentFormat = 'markdown' | 'text' | 'html';

export const FORMAT_BY_EXTENSION: Readonly<Record<string, DocumentFormat>> = {
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.txt': 'text',
  '.html': 'html',
  '.htm': 'html',
};

/** Splits `---` front matter off a Markdown text: its raw YAML and the rest. */
export function splitFrontMatter(text: string): { yaml?: string; body: string; lines: number } {
  const match = FRONT_MATTER.exec(text);
  if (!match) return { body: text, lines: 0 };
  return { yaml: match[1], body: text.slice(match[0].length), lines: match[0].split('\n').length - 1 };
}

export function documentText(text: string, format: DocumentFormat, frontMatterTitle?: string): DocumentText {
  if (format === 'html') return htmlText(text);
  const { body, lines: skipped } = format === 'markdown' ? splitFrontMatter(text) : { body: text, lines: 0 };
  const lines = body.split(/\r?\n/);
  const heading = format === 'markdown' ? lines.find((line) => /^#\s+\S/.test(line)) : undefined;
  const firstText = lines.find((line) => line.trim() !== '');
  const title = frontMatterTitle ?? heading?.replace(/^#\s+/, '').trim() ?? firstText?.trim();
  return { title: title?.slice(0, 300), lines, firstLine: skipped + 1 };
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

const stripTags = (html: string): string =>
  decodeEntities(html.replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The text of an HTML page: scripts, styles and comments dropped, headings as `#` lines, block elements
 * as line breaks, everything else as its text. Regular expressions suffice for this (no layout, no DOM):
 * each pattern is linear, so a hostile page costs time proportional to its size.
 */
function htmlText(html: string): DocumentText {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  const h1 = /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1];
  const body = html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|head)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1\s*>/gi, (_whole, level: string, inner: string) => {
      return `\n${'#'.repeat(Number(level))} ${stripTags(inner)}\n`;
    })
    .replace(
      /<(br|\/p|\/div|\/li|\/tr|\/pre|\/blockquote|\/h[1-6]|\/ul|\/ol|\/table|\/section|\/article)\b[^>]*>/gi,
      '\n',
    )
    .replace(/<li\b[^>]*>/gi, '\n- ');
  const lines = body.split(/\r?\n/).map((line) =>
    decodeEntities(line.replace(/<[^>]*>/g, ''))
      .replace(/[ \t]+/g, ' ')
      .trimEnd(),
  );
  const chosen = [title, h1].map((value) => (value ? stripTags(value) : '')).find(Boolean);
  return { title: chosen?.slice(0, 300), lines, firstLine: 1 };
}
