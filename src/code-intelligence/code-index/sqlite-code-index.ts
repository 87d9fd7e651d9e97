import type Database from 'better-sqlite3';
import { openDatabase } from '../../common/sqlite/open-database';
import { statSync } from 'node:fs';
import * as path from 'node:path';
import { chunkSource } from './code-chunker';
import { readSourceFiles } from './code-files.reader';
import { CodeIndexPort } from './code-index.port';
import { ChunkHit, CodeChunk, CodeIndexStatus, SourceFile } from './code-index.types';
import { ftsMatchExpression, identifierTerms, indexText, queryTerms } from './identifier-tokens';
import { importSpecifiers, resolveImport } from './import-parser';
import { LIMIT_PARAMETER } from '../../common/sqlite/limit-parameter';

const SCHEMA = `
  CREATE TABLE files (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, language TEXT NOT NULL);
  CREATE TABLE chunks (id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL, symbol TEXT, kind TEXT NOT NULL, content TEXT NOT NULL);
  CREATE INDEX chunks_file ON chunks(file_id);
  CREATE INDEX chunks_symbol ON chunks(symbol);
  CREATE VIRTUAL TABLE chunk_text USING fts5(symbol_terms, path_terms, body_terms, tokenize = "unicode61 tokenchars '_'");
  CREATE TABLE imports (from_id INTEGER NOT NULL, to_id INTEGER NOT NULL, PRIMARY KEY (from_id, to_id));
`;

interface ChunkRow {
  path: string;
  start_line: number;
  end_line: number;
  symbol: string | null;
  kind: CodeChunk['kind'];
  content: string;
}

// A chunk that defines the searched name outranks one that merely mentions it (an import line, say).
const BM25_WEIGHTS = 'bm25(chunk_text, 5.0, 1.5, 1.0)';
const CHUNK_COLUMNS = 'f.path, c.start_line, c.end_line, c.symbol, c.kind, c.content';
const toChunk = (row: ChunkRow): CodeChunk => ({
  file: row.path,
  startLine: row.start_line,
  endLine: row.end_line,
  symbol: row.symbol,
  kind: row.kind,
  content: row.content,
});
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** CODE_ROOT (or --code-root) names no readable directory. */
export class CodeRootNotFoundError extends Error {
  constructor(root: string) {
    super(`code root ${root} is not a directory (check CODE_ROOT or --code-root)`);
    this.name = 'CodeRootNotFoundError';
  }
}

function isDirectory(target: string): boolean {
  try {
    return statSync(target).isDirectory();
  } catch {
    return false;
  }
}

/** The code index in an in-memory SQLite database: FTS5 (BM25) over chunk terms plus an import-edge table. */
export class SqliteCodeIndex extends CodeIndexPort {
  private db = this.emptyDatabase();
  private indexedRoot: string | undefined;
  private current: CodeIndexStatus = {
    code_root: null,
    files: 0,
    chunks: 0,
    edges: 0,
    skipped_files: 0,
    indexed_at: null,
  };

  rebuild(root: string | undefined): CodeIndexStatus {
    if (root !== undefined && !isDirectory(root)) throw new CodeRootNotFoundError(root);
    const db = this.emptyDatabase();
    const { files, skipped } = root ? readSourceFiles(root) : { files: [], skipped: 0 };
    const counts = db.transaction(() => this.load(db, files))();
    this.db.close();
    this.db = db;
    this.indexedRoot = root ? path.resolve(root) : undefined;
    this.current = {
      code_root: this.indexedRoot ?? null,
      files: files.length,
      chunks: counts.chunks,
      edges: counts.edges,
      skipped_files: skipped,
      indexed_at: root ? new Date().toISOString() : null,
    };
    return this.status();
  }

  status(): CodeIndexStatus {
    return { ...this.current };
  }

  root(): string | undefined {
    return this.indexedRoot;
  }

  search(query: string, limit: number): ChunkHit[] {
    const expression = ftsMatchExpression(queryTerms(query));
    if (!expression) return [];
    const rows = this.db
      .prepare(
        `SELECT ${CHUNK_COLUMNS}, ${BM25_WEIGHTS} AS rank FROM chunk_text
         JOIN chunks c ON c.id = chunk_text.rowid JOIN files f ON f.id = c.file_id
         WHERE chunk_text MATCH ? ORDER BY rank ${LIMIT_PARAMETER}`,
      )
      .all(expression, limit) as (ChunkRow & { rank: number })[];
    // FTS5's bm25() is lower-is-better; flip it so callers rank by "higher is better".
    return rows.map((row) => ({ chunk: toChunk(row), score: -row.rank }));
  }

  chunksOfFile(file: string): CodeChunk[] {
    const rows = this.db
      .prepare(
        `SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.path = ? ORDER BY c.start_line`,
      )
      .all(file) as ChunkRow[];
    return rows.map(toChunk);
  }

  importNeighbours(file: string): string[] {
    const rows = this.db
      .prepare(
        `SELECT DISTINCT other.path AS path FROM files me
         JOIN imports i ON i.from_id = me.id OR i.to_id = me.id
         JOIN files other ON other.id = CASE WHEN i.from_id = me.id THEN i.to_id ELSE i.from_id END
         WHERE me.path = ? ORDER BY other.path`,
      )
      .all(file) as { path: string }[];
    return rows.map((row) => row.path);
  }

  definitions(symbol: string): CodeChunk[] {
    const rows = this.db
      .prepare(
        `SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.symbol = ? ORDER BY f.path, c.start_line`,
      )
      .all(symbol) as ChunkRow[];
    return rows.map(toChunk);
  }

  callSites(symbol: string, limit: number): CodeChunk[] {
    const expression = ftsMatchExpression([identifierTerms(symbol)[0]]);
    if (!expression) return [];
    const rows = this.db
      .prepare(
        `SELECT ${CHUNK_COLUMNS} FROM chunk_text JOIN chunks c ON c.id = chunk_text.rowid
         JOIN files f ON f.id = c.file_id WHERE chunk_text MATCH ? ORDER BY f.path, c.start_line`,
      )
      .all(expression) as ChunkRow[];
    const call = new RegExp(`(^|[^\\w$])${escapeRegExp(symbol)}\\s*\\(`);
    return rows
      .map(toChunk)
      .filter((chunk) => chunk.symbol !== symbol && call.test(chunk.content))
      .slice(0, limit);
  }

  private emptyDatabase(): Database.Database {
    const db = openDatabase();
    db.exec(SCHEMA);
    return db;
  }

  private load(db: Database.Database, files: SourceFile[]): { chunks: number; edges: number } {
    const insertFile = db.prepare('INSERT INTO files (path, language) VALUES (?, ?)');
    const insertChunk = db.prepare(
      'INSERT INTO chunks (file_id, start_line, end_line, symbol, kind, content) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const insertText = db.prepare(
      'INSERT INTO chunk_text (rowid, symbol_terms, path_terms, body_terms) VALUES (?, ?, ?, ?)',
    );
    const ids = new Map<string, number>();
    let chunks = 0;
    for (const file of files) {
      const fileId = Number(insertFile.run(file.path, file.language).lastInsertRowid);
      ids.set(file.path, fileId);
      for (const chunk of chunkSource(file)) {
        const chunkId = insertChunk.run(
          fileId,
          chunk.startLine,
          chunk.endLine,
          chunk.symbol,
          chunk.kind,
          chunk.content,
        ).lastInsertRowid;
        // The path and the symbol name are indexed too, so "order service" finds order-service.ts.
        insertText.run(chunkId, indexText(chunk.symbol ?? ''), indexText(file.path), indexText(chunk.content));
        chunks += 1;
      }
    }
    return { chunks, edges: this.loadImports(db, files, ids) };
  }

  private loadImports(db: Database.Database, files: SourceFile[], ids: Map<string, number>): number {
    const insertImport = db.prepare('INSERT OR IGNORE INTO imports (from_id, to_id) VALUES (?, ?)');
    const known = new Set(ids.keys());
    let edges = 0;
    for (const file of files) {
      for (const specifier of importSpecifiers(file.language, file.text)) {
        for (const target of resolveImport(file.language, file.path, specifier, known)) {
          if (target !== file.path) edges += insertImport.run(ids.get(file.path), ids.get(target)).changes;
        }
      }
    }
    return edges;
  }
}
