import { Dirent, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { CodeLanguage, SourceFile } from './code-index.types';

const LANGUAGES: Record<string, CodeLanguage> = {
  '.ts': 'typescript',
  '.tsx': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.js': 'javascript',
  '.jsx': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.py': 'python',
  '.go': 'go',
};

const IGNORED_DIRECTORIES = new Set([
  'node_modules',
  'dist',
  'build',
  'coverage',
  'vendor',
  '__pycache__',
  '.venv',
  'venv',
  '.next',
  'target',
]);

export const MAX_FILE_BYTES = 256 * 1024;
export const MAX_FILES = 5000;

export interface ReadResult {
  files: SourceFile[];
  skipped: number;
}

/**
 * Reads the source files under a code root: known languages only, no hidden or build folders, no
 * symlinks (so the walk never leaves the root), nothing huge or binary.
 */
export function readSourceFiles(root: string): ReadResult {
  const files: SourceFile[] = [];
  let skipped = 0;
  const walk = (directory: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (files.length >= MAX_FILES) return;
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && !IGNORED_DIRECTORIES.has(entry.name)) walk(full);
        continue;
      }
      const language = LANGUAGES[path.extname(entry.name).toLowerCase()];
      if (!entry.isFile() || !language) continue;
      const text = readSmallText(full);
      if (text === undefined) skipped += 1;
      else files.push({ path: path.relative(root, full).split(path.sep).join('/'), language, text });
    }
  };
  walk(root);
  return { files, skipped };
}

function readSmallText(file: string): string | undefined {
  try {
    if (statSync(file).size > MAX_FILE_BYTES) return undefined;
    const buffer = readFileSync(file);
    return buffer.includes(0) ? undefined : buffer.toString('utf8');
  } catch {
    return undefined;
  }
}
