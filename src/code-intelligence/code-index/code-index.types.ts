export type CodeLanguage = 'typescript' | 'javascript' | 'python' | 'go';

export interface SourceFile {
  /** Path relative to the code root, with forward slashes. */
  path: string;
  language: CodeLanguage;
  text: string;
}

export interface CodeChunk {
  file: string;
  startLine: number;
  endLine: number;
  /** The function/class/type the chunk starts with; null for headers and line windows. */
  symbol: string | null;
  kind: 'function' | 'class' | 'type' | 'header' | 'block';
  content: string;
}

export interface ChunkHit {
  chunk: CodeChunk;
  /** BM25 score, higher is better. */
  score: number;
}

export interface CodeIndexStatus {
  code_root: string | null;
  files: number;
  chunks: number;
  edges: number;
  skipped_files: number;
  indexed_at: string | null;
}
