import { Dirent, lstatSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { chunkDocument, Passage } from './passage-chunker';
import { documentText, DocumentFormat, FORMAT_BY_EXTENSION, splitFrontMatter } from './document-text';

/** Bounds on what a documents folder may hold; anything beyond is reported and skipped. */
export const DOCS_LIMITS = {
  fileBytes: 2 * 1024 * 1024,
  filesPerBase: 20000,
  depth: 8,
  bases: 200,
} as const;

const KB_ID = /^[A-Za-z0-9][\w.-]{0,127}$/;
const README = /^readme\.(md|markdown)$/i;

export interface LoadedDocument {
  /** Path inside the knowledge base folder, `/`-separated: the document id and the `knowledge_filename`. */
  file: string;
  title: string;
  passages: Passage[];
}

export interface LoadedBase {
  id: string;
  name: string;
  description: string;
  documents: LoadedDocument[];
}

export interface LoadedDocs {
  bases: LoadedBase[];
  /** One line per skipped file or folder, naming its path (relative to the root) and why. */
  warnings: string[];
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a documents folder: each sub-folder is a knowledge base (id = folder name; name and description
 * from its README front matter), each Markdown, text or HTML file inside it (sub-folders included) a
 * document. Symbolic links are not followed. A file that cannot be read, is too large or is not UTF-8 is
 * reported with its path and skipped; the rest still loads.
 */
export function loadDocsFolder(root: string): LoadedDocs {
  const warnings: string[] = [];
  const bases: LoadedBase[] = [];
  const entries = readdirSync(root, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    if (!KB_ID.test(entry.name)) {
      warnings.push(`${entry.name}: skipped, a knowledge base folder name must match ${KB_ID.source}`);
      continue;
    }
    if (bases.length >= DOCS_LIMITS.bases) {
      warnings.push(`${entry.name}: skipped, more than ${DOCS_LIMITS.bases} knowledge bases`);
      continue;
    }
    bases.push(loadBase(root, entry.name, warnings));
  }
  return { bases, warnings };
}

function loadBase(root: string, id: string, warnings: string[]): LoadedBase {
  const folder = path.join(root, id);
  const base: LoadedBase = { id, name: id, description: '', documents: [] };
  for (const file of listFiles(folder, '', 0, warnings, id)) {
    const relative = `${id}/${file}`;
    const text = readText(path.join(folder, file), relative, warnings);
    if (text === undefined) continue;
    if (README.test(file)) {
      Object.assign(base, baseInfo(text, id, relative, warnings));
      continue;
    }
    if (base.documents.length >= DOCS_LIMITS.filesPerBase) {
      warnings.push(`${relative}: skipped, more than ${DOCS_LIMITS.filesPerBase} documents in ${id}`);
      continue;
    }
    const format = FORMAT_BY_EXTENSION[path.extname(file).toLowerCase()] as DocumentFormat;
    const frontTitle = format === 'markdown' ? frontMatterField(text, 'title') : undefined;
    const document = documentText(text, format, frontTitle);
    const passages = chunkDocument(document);
    if (passages.length === 0) {
      warnings.push(`${relative}: skipped, no text`);
      continue;
    }
    base.documents.push({ file, title: document.title || path.basename(file), passages });
  }
  return base;
}

/** Supported files under a folder, sorted, as paths relative to the knowledge base folder. */
function listFiles(folder: string, prefix: string, depth: number, warnings: string[], id: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(path.join(folder, prefix), { withFileTypes: true });
  } catch (error) {
    warnings.push(`${id}/${prefix}: skipped, cannot be listed (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    return [];
  }
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith('.')) continue;
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (depth + 1 >= DOCS_LIMITS.depth) warnings.push(`${id}/${relative}: skipped, folders nested too deep`);
      else files.push(...listFiles(folder, relative, depth + 1, warnings, id));
    } else if (entry.isFile() && FORMAT_BY_EXTENSION[path.extname(entry.name).toLowerCase()]) {
      files.push(relative);
    }
  }
  return files;
}

function readText(file: string, relative: string, warnings: string[]): string | undefined {
  try {
    const size = lstatSync(file).size;
    if (size > DOCS_LIMITS.fileBytes) {
      warnings.push(`${relative}: skipped, ${size} bytes is over the ${DOCS_LIMITS.fileBytes}-byte limit`);
      return undefined;
    }
    return utf8.decode(readFileSync(file)).replace(/^\uFEFF/, '');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    warnings.push(`${relative}: skipped, ${code ? `cannot be read (${code})` : 'not valid UTF-8'}`);
    return undefined;
  }
}

function baseInfo(text: string, id: string, relative: string, warnings: string[]): Partial<LoadedBase> {
  const name = frontMatterField(text, 'name', relative, warnings);
  const description = frontMatterField(text, 'description', relative, warnings);
  const firstParagraph = splitFrontMatter(text)
    .body.split(/\r?\n\s*\r?\n/)
    .map((block) => block.trim())
    .find((block) => block !== '' && !block.startsWith('#'));
  return {
    name: name ?? id,
    description: (description ?? firstParagraph ?? '').replace(/\s+/g, ' ').slice(0, 1000),
  };
}

function frontMatterField(text: string, field: string, relative?: string, warnings?: string[]): string | undefined {
  const { yaml } = splitFrontMatter(text);
  if (yaml === undefined) return undefined;
  try {
    const value = (parseYaml(yaml) as Record<string, unknown> | null)?.[field];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  } catch {
    if (relative && field === 'name') warnings?.push(`${relative}: front matter is not valid YAML, ignored`);
    return undefined;
  }
}
