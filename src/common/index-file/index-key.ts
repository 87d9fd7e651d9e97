import { createHash, Hash } from 'node:crypto';
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Bumped whenever the layout of an index file changes (tables, meta, tokenizer): a file written by
 * another version has another name and is never opened.
 */
export const INDEX_FORMAT_VERSION = 5;

const CHUNK = 1 << 20;

/** What an index depends on besides its source files: the embedding model that wrote its vectors. */
export interface IndexInputs {
  /** `url model` of the embeddings endpoint, or undefined for a keyword-only index. */
  embedding?: string;
}

/** Every regular file under `folder` (hidden ones skipped), relative, with `/`, sorted. */
export function sourceFiles(folder: string): string[] {
  const files: string[] = [];
  const walk = (dir: string, prefix: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path.join(dir, entry.name), relative);
      else if (entry.isFile()) files.push(relative);
    }
  };
  walk(folder, '');
  return files.sort();
}

/** Streams a file into a hash in 1 MiB reads, so a large CSV is never held in memory whole. */
export function hashFileInto(hash: Hash, file: string): number {
  const buffer = Buffer.allocUnsafe(CHUNK);
  const fd = openSync(file, 'r');
  let total = 0;
  try {
    for (let read = readSync(fd, buffer, 0, CHUNK, null); read > 0; read = readSync(fd, buffer, 0, CHUNK, null)) {
      hash.update(buffer.subarray(0, read));
      total += read;
    }
  } finally {
    closeSync(fd);
  }
  return total;
}

/** sha256 of a file's bytes, hex. */
export function fileSha256(file: string): string {
  const hash = createHash('sha256');
  hashFileInto(hash, file);
  return hash.digest('hex');
}

/**
 * sha256 over a network folder's content: every file's relative path, length and bytes (BKN, CSV,
 * mcp.json, anything else the folder ships), so any edit, addition, removal or rename changes it.
 */
export function sourceHash(folder: string): string {
  return sourceHashOf(folder, sourceFiles(folder));
}

/** `sourceHash` over files already listed (relative to `folder`, in `sourceFiles` order). */
export function sourceHashOf(folder: string, relatives: string[]): string {
  const hash = createHash('sha256');
  for (const relative of relatives) {
    hash.update(`${relative}\u0000`);
    const length = hashFileInto(hash, path.join(folder, relative));
    hash.update(`\u0000${length}\u0000`);
  }
  return hash.digest('hex');
}

/** The key an index file is named by: format version, embedding model and source content together. */
export function indexKey(source: string, inputs: IndexInputs): string {
  return createHash('sha256')
    .update(`agent-retrieval-index\u0000${INDEX_FORMAT_VERSION}\u0000${inputs.embedding ?? 'keyword'}\u0000${source}`)
    .digest('hex');
}
