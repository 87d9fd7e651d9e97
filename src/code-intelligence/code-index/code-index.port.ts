import { ChunkHit, CodeChunk, CodeIndexStatus } from './code-index.types';

/** The searchable index of the code under CODE_ROOT: chunks, full-text search and the import graph. */
export abstract class CodeIndexPort {
  /** Re-reads the code root (none → an empty index) and rebuilds everything. */
  abstract rebuild(root: string | undefined): CodeIndexStatus;
  abstract status(): CodeIndexStatus;
  /** BM25 search over chunk identifiers and their camelCase/snake_case parts. */
  abstract search(query: string, limit: number): ChunkHit[];
  abstract chunksOfFile(file: string): CodeChunk[];
  /** Files this file imports and files importing it (relative imports resolved to indexed files). */
  abstract importNeighbours(file: string): string[];
  /** Chunks that define a symbol (exact name). */
  abstract definitions(symbol: string): CodeChunk[];
  /** Chunks whose text calls `symbol(`, definitions excluded. */
  abstract callSites(symbol: string, limit: number): CodeChunk[];
  /** Absolute path of the indexed root, if any (to map CKB's absolute paths). */
  abstract root(): string | undefined;
}
