import { CodeChunk, CodeLanguage, SourceFile } from './code-index.types';

interface Boundary {
  line: number;
  symbol: string;
  kind: CodeChunk['kind'];
}

type Rule = { pattern: RegExp; kind: CodeChunk['kind'] };

const NOT_METHODS = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'function', 'with', 'elif', 'else']);

const RULES: Record<CodeLanguage, Rule[]> = {
  typescript: [
    { pattern: /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/, kind: 'function' },
    { pattern: /^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)/, kind: 'class' },
    { pattern: /^\s*(?:export\s+)?(?:interface|type|enum)\s+([A-Za-z_$][\w$]*)/, kind: 'type' },
    {
      pattern:
        /^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|[A-Za-z_$][\w$]*\s*=>)/,
      kind: 'function',
    },
    {
      pattern:
        /^\s+(?:(?:public|private|protected|static|readonly|async|override|get|set)\s+)*([A-Za-z_$][\w$]*)\s*\([^;]*\{\s*$/,
      kind: 'function',
    },
  ],
  javascript: [],
  python: [
    { pattern: /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/, kind: 'function' },
    { pattern: /^\s*class\s+([A-Za-z_]\w*)/, kind: 'class' },
  ],
  go: [
    { pattern: /^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/, kind: 'function' },
    { pattern: /^type\s+([A-Za-z_]\w*)\s+(?:struct|interface)\b/, kind: 'type' },
  ],
};
RULES.javascript = RULES.typescript;

const WINDOW_LINES = 60;
const MAX_CHUNK_LINES = 120;

function findBoundaries(lines: string[], language: CodeLanguage): Boundary[] {
  const boundaries: Boundary[] = [];
  lines.forEach((text, index) => {
    for (const rule of RULES[language]) {
      const match = rule.pattern.exec(text);
      if (match && !NOT_METHODS.has(match[1])) {
        boundaries.push({ line: index, symbol: match[1], kind: rule.kind });
        return;
      }
    }
  });
  return boundaries;
}

function makeChunk(
  file: string,
  lines: string[],
  start: number,
  end: number,
  symbol: string | null,
  kind: CodeChunk['kind'],
): CodeChunk | undefined {
  let last = end;
  while (last > start && lines[last - 1].trim() === '') last -= 1;
  if (last <= start) return undefined;
  return { file, startLine: start + 1, endLine: last, symbol, kind, content: lines.slice(start, last).join('\n') };
}

/** Long segments are cut into line windows; the first window keeps the symbol. */
function segmentChunks(
  file: string,
  lines: string[],
  start: number,
  end: number,
  symbol: string | null,
  kind: CodeChunk['kind'],
): CodeChunk[] {
  const size = end - start > MAX_CHUNK_LINES ? WINDOW_LINES : end - start;
  const chunks: CodeChunk[] = [];
  for (let from = start; from < end; from += Math.max(size, 1)) {
    const first = from === start;
    const chunk = makeChunk(
      file,
      lines,
      from,
      Math.min(from + size, end),
      first ? symbol : null,
      first ? kind : 'block',
    );
    if (chunk) chunks.push(chunk);
  }
  return chunks;
}

/** Splits a file into function/class chunks at regex-found boundaries, or line windows when there are none. */
export function chunkSource(source: SourceFile): CodeChunk[] {
  const lines = source.text.split(/\r?\n/);
  const boundaries = findBoundaries(lines, source.language);
  if (boundaries.length === 0) return segmentChunks(source.path, lines, 0, lines.length, null, 'block');
  const chunks = segmentChunks(source.path, lines, 0, boundaries[0].line, null, 'header');
  boundaries.forEach((boundary, index) => {
    const end = index + 1 < boundaries.length ? boundaries[index + 1].line : lines.length;
    chunks.push(...segmentChunks(source.path, lines, boundary.line, end, boundary.symbol, boundary.kind));
  });
  return chunks;
}
