import { DocumentText } from './document-text';

/** A passage of a document: the unit that is indexed, scored and returned. */
export interface Passage {
  content: string;
  /** Headings above the passage, outermost first. */
  headingPath: string[];
  /** 1-based, inclusive, in the file. */
  startLine: number;
  endLine: number;
}

export interface ChunkOptions {
  /** Target passage length in characters. */
  size: number;
  /** Characters of the previous passage repeated at the start of the next one in a long section. */
  overlap: number;
}

export const DEFAULT_CHUNKING: ChunkOptions = { size: 500, overlap: 80 };

const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;
const FENCE = /^\s*(```|~~~)/;

interface Line {
  text: string;
  number: number;
}

/**
 * Cuts a document at its headings, then each section into passages of about `size` characters at line
 * boundaries (a longer line is cut at sentence ends, else hard), the next passage starting with the last
 * lines (up to `overlap` characters) of the one before. Headings inside fenced code are text.
 */
export function chunkDocument(document: DocumentText, options: ChunkOptions = DEFAULT_CHUNKING): Passage[] {
  const passages: Passage[] = [];
  const path: string[] = [];
  let section: Line[] = [];
  let inFence = false;
  const flush = (): void => {
    passages.push(...chunkSection(section, [...path], options));
    section = [];
  };
  document.lines.forEach((text, index) => {
    const number = document.firstLine + index;
    if (FENCE.test(text)) inFence = !inFence;
    const heading = inFence ? null : HEADING.exec(text);
    if (heading) {
      flush();
      const level = heading[1].length;
      path.length = Math.min(path.length, level - 1);
      while (path.length < level - 1) path.push('');
      path.push(heading[2].slice(0, 200));
      return;
    }
    for (const piece of splitLongLine(text, options.size)) section.push({ text: piece, number });
  });
  flush();
  return passages.map((passage) => ({ ...passage, headingPath: passage.headingPath.filter(Boolean) }));
}

function chunkSection(lines: Line[], headingPath: string[], options: ChunkOptions): Passage[] {
  const passages: Passage[] = [];
  let current: Line[] = [];
  let length = 0;
  // Lines added since the last passage; the overlap alone never makes a passage.
  let fresh = false;
  const emit = (): void => {
    const content = current
      .map((line) => line.text)
      .join('\n')
      .trim();
    if (content !== '') {
      passages.push({
        content,
        headingPath,
        startLine: current[0].number,
        endLine: current[current.length - 1].number,
      });
    }
  };
  for (const line of lines) {
    if (fresh && length + line.text.length > options.size) {
      emit();
      fresh = false;
      current = overlapTail(current, options.overlap);
      length = current.reduce((sum, kept) => sum + kept.text.length + 1, 0);
    }
    current.push(line);
    length += line.text.length + 1;
    fresh = true;
  }
  if (fresh) emit();
  return passages;
}

/** The last lines of a passage, up to `overlap` characters, that start the next one. */
function overlapTail(lines: Line[], overlap: number): Line[] {
  const tail: Line[] = [];
  let length = 0;
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    length += lines[index].text.length + 1;
    if (length > overlap) break;
    tail.unshift(lines[index]);
  }
  return tail;
}

const SENTENCE = /[。！？；.!?;]\s*/g;

/** A line longer than a passage, cut at sentence ends where it can and hard where it cannot. */
function splitLongLine(text: string, size: number): string[] {
  if (text.length <= size) return [text];
  const pieces: string[] = [];
  let start = 0;
  while (text.length - start > size) {
    let end = start + size;
    SENTENCE.lastIndex = start + Math.floor(size / 2);
    let match: RegExpExecArray | null;
    let cut = -1;
    while ((match = SENTENCE.exec(text)) && match.index + match[0].length <= start + size)
      cut = match.index + match[0].length;
    if (cut > start) end = cut;
    pieces.push(text.slice(start, end));
    start = end;
  }
  pieces.push(text.slice(start));
  return pieces;
}
