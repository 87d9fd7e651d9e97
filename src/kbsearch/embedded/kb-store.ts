import type Database from 'better-sqlite3';
import { openDatabase } from '../../common/sqlite/open-database';
import { hasTable } from '../../common/sqlite/has-table';
import { LRUCache } from 'lru-cache';
import { AppException } from '../../common/errors/app.exception';
import { distinctWords } from '../../common/text/words';
import { EmbeddingClient } from '../../common/search/embedding-client';
import { FTS5_TOKENIZER } from '../../common/bm25/fts5-tokens';
import { buildImpactPostings } from '../../common/bm25/impact-postings';
import { ImpactTopK } from '../../common/bm25/impact-top-k';
import { keywordTopK } from '../../common/bm25/keyword-top-k';
import { fts5PhraseSum } from '../../common/bm25/phrase-sum';
import { ftsQuery, queryWords, segmentForIndex } from '../../common/search/text-segmenter';
import { KbErrors } from '../kbsearch.errors';
import { KbSearchResult, KnowledgeBase, MatchType } from '../kb.types';
import { LoadedBase } from './docs-folder';
import { openKbIndex, readKbMeta, readKbVectors } from './kb-index-file';
import { coverageScores, fuse, KeywordHit, Scored, termWeights } from './passage-ranking';
import { LIMIT_PARAMETER } from '../../common/sqlite/limit-parameter';

/** What one search asks of the store. `candidates` bounds the work: at most that many passages per ranking. */
export interface StoreQuery {
  query: string;
  mode: 'keyword' | 'vector' | 'hybrid';
  kbIds: string[];
  candidates: number;
  minScore: number;
  /** Results sent back; the others at or above `minScore` are only counted (`total`). Default: all. */
  keep?: number;
}

/** The store's answer: every candidate at or above `minScore`, best first. */
export interface StoreAnswer {
  results: KbSearchResult[];
  /** Candidates at or above `minScore`, sent or not. */
  total: number;
}

/** A built store other threads open: its index file (shared pages), or its database serialized with its vectors. */
export type StoreSnapshot = { file: string } | { bytes: Uint8Array; vectors?: Float32Array; dimension: number };

// Title and headings say what a passage is about: a hit there counts more than one in the body.
const BM25 = 'bm25(passages_fts, 4.0, 2.0, 1.0)';
const BM25_WEIGHTS = new Map([
  ['title', 4],
  ['heading', 2],
  ['body', 1],
]);

interface PassageRow {
  rowid: number;
  kb_id: string;
  file: string;
  title: string;
  heading: string;
  chunk_index: number;
  start_line: number;
  end_line: number;
  content: string;
  terms: string;
}

/**
 * The passages of every knowledge base in one SQLite database: a row table for what is returned and a
 * contentless FTS5 index of the segmented text (title, heading path, body) for BM25, plus, when an
 * embedding endpoint is configured, one vector per passage searched exactly by cosine similarity.
 */
export class KbStore {
  private readonly db: Database.Database;
  private readonly passageCount: number;
  private readonly queryVectors = new LRUCache<string, Float32Array>({ max: 500 });
  private readonly keywordHits: Database.Statement;
  private readonly vocabulary: Database.Statement;
  private readonly passageRows: Database.Statement;
  private readonly passageTerms: Database.Statement;
  /** The postings top k of passages_fts; undefined (FTS5 ranks) for a database built without them. */
  private readonly topK?: ImpactTopK;
  private kbOfRow?: string[];

  private constructor(
    db: Database.Database,
    private readonly vectors: Float32Array | undefined,
    private readonly dimension: number,
    private readonly embeddings: EmbeddingClient | undefined,
  ) {
    this.db = db;
    this.passageCount = (db.prepare('SELECT count(*) AS n FROM passages').get() as { n: number }).n;
    this.keywordHits = db.prepare(
      `SELECT f.rowid AS rowid, ${BM25} AS rank, p.terms AS terms FROM passages_fts f JOIN passages p ON p.rowid = f.rowid
       WHERE passages_fts MATCH ? AND p.kb_id IN (SELECT value FROM json_each(?)) ORDER BY rank ${LIMIT_PARAMETER}`,
    );
    this.vocabulary = db.prepare('SELECT term, doc FROM passages_vocab WHERE term IN (SELECT value FROM json_each(?))');
    this.passageRows = db.prepare('SELECT * FROM passages WHERE rowid IN (SELECT value FROM json_each(?))');
    this.passageTerms = db.prepare('SELECT rowid, terms FROM passages WHERE rowid IN (SELECT value FROM json_each(?))');
    const sum = fts5PhraseSum();
    if (sum && hasTable(db, 'passages_postings')) this.topK = new ImpactTopK(db, 'passages_postings', sum);
  }

  static build(bases: LoadedBase[]): Database.Database {
    const db = openDatabase();
    db.pragma('journal_mode = OFF');
    db.exec(`
      CREATE TABLE passages(rowid INTEGER PRIMARY KEY, kb_id TEXT NOT NULL, file TEXT NOT NULL, title TEXT NOT NULL,
        heading TEXT NOT NULL, chunk_index INTEGER NOT NULL, start_line INTEGER NOT NULL, end_line INTEGER NOT NULL,
        content TEXT NOT NULL, terms TEXT NOT NULL);
      CREATE INDEX passages_kb ON passages(kb_id);
      CREATE VIRTUAL TABLE passages_fts USING fts5(title, heading, body, content='', tokenize='${FTS5_TOKENIZER}');
      CREATE VIRTUAL TABLE passages_vocab USING fts5vocab(passages_fts, 'row');`);
    const row = db.prepare(
      'INSERT INTO passages VALUES (@rowid, @kb_id, @file, @title, @heading, @chunk_index, @start_line, @end_line, @content, @terms)',
    );
    const fts = db.prepare('INSERT INTO passages_fts(rowid, title, heading, body) VALUES (?, ?, ?, ?)');
    let rowid = 0;
    db.transaction(() => {
      for (const base of bases) {
        for (const document of base.documents) {
          document.passages.forEach((passage, index) => {
            rowid += 1;
            const heading = JSON.stringify(passage.headingPath);
            const title = segmentForIndex(document.title);
            const headingText = segmentForIndex(passage.headingPath.join('\n'));
            const body = segmentForIndex(passage.content);
            row.run({
              rowid,
              kb_id: base.id,
              file: document.file,
              title: document.title,
              heading,
              chunk_index: index,
              start_line: passage.startLine,
              end_line: passage.endLine,
              content: passage.content,
              terms: `${title} ${headingText} ${body}`,
            });
            fts.run(rowid, title, headingText, body);
          });
        }
      }
    })();
    buildImpactPostings(db, { fts: 'passages_fts', postings: 'passages_postings', weights: BM25_WEIGHTS });
    return db;
  }

  /** The text embedded for a passage: where it sits, then what it says. */
  static embeddingText(db: Database.Database): string[] {
    const rows = db.prepare('SELECT title, heading, content FROM passages ORDER BY rowid').all() as PassageRow[];
    return rows.map((row) => [row.title, ...(JSON.parse(row.heading) as string[]), row.content].join('\n'));
  }

  static open(snapshot: StoreSnapshot, embeddings?: EmbeddingClient): KbStore {
    if ('file' in snapshot) {
      const db = openKbIndex(snapshot.file);
      const vectors = readKbVectors(db);
      return new KbStore(db, vectors, readKbMeta(db).dimension, vectors ? embeddings : undefined);
    }
    const { bytes } = snapshot;
    const db = openDatabase(bytes);
    return new KbStore(db, snapshot.vectors, snapshot.dimension, snapshot.vectors ? embeddings : undefined);
  }

  static serve(
    db: Database.Database,
    vectors: Float32Array | undefined,
    dimension: number,
    embeddings?: EmbeddingClient,
  ): KbStore {
    return new KbStore(db, vectors, dimension, vectors ? embeddings : undefined);
  }

  get hasVectors(): boolean {
    return this.vectors !== undefined;
  }

  async search(request: StoreQuery): Promise<StoreAnswer> {
    if (request.mode === 'vector' && !this.embeddings) {
      throw new AppException(
        KbErrors.VectorSearchUnavailable,
        'vector search needs an embedding endpoint (EMBEDDING_URL)',
      );
    }
    const allowed = new Set(request.kbIds);
    const keyword =
      request.mode === 'vector' ? [] : this.keywordSearch(request.query, request.kbIds, request.candidates);
    const vector =
      request.mode === 'keyword' || !this.embeddings
        ? []
        : await this.vectorSearch(request.query, allowed, request.candidates);
    const fused = fuse(keyword, vector).filter((hit) => hit.score >= request.minScore);
    // Only the passages sent are read: a search keeps top_k (≤ 50) of up to 250 candidates.
    const kept = fused.slice(0, request.keep ?? fused.length);
    const rows = this.rows(kept.map((hit) => hit.rowid));
    return {
      results: kept.flatMap((hit) => {
        const row = rows.get(hit.rowid);
        return row ? [result(row, hit.score, hit.matchType)] : [];
      }),
      total: fused.length,
    };
  }

  close(): void {
    this.db.close();
  }

  serialize(): Uint8Array {
    return this.db.serialize();
  }

  /** BM25 over the query's words (OR, so a passage matching most of them still ranks), the best `limit` only. */
  private keywordSearch(query: string, kbIds: string[], limit: number): Scored[] {
    const expression = ftsQuery(query, 'OR');
    if (expression === '') return [];
    const hits = this.postingsHits(query, kbIds, limit) ?? this.ftsHits(expression, kbIds, limit);
    if (hits.length === 0) return [];
    const words = distinctWords(query);
    const rows = this.vocabulary.all(JSON.stringify(words)) as { term: string; doc: number }[];
    const passagesWith = new Map(rows.map((row) => [row.term, row.doc]));
    return coverageScores(hits, termWeights(words, passagesWith, this.passageCount));
  }

  /** The bm25 top `limit` of the allowed knowledge bases from the postings; undefined when FTS5 must rank. */
  private postingsHits(query: string, kbIds: string[], limit: number): KeywordHit[] | undefined {
    if (!this.topK) return undefined;
    const allowed = new Set(kbIds);
    const kbOf = this.kbOfRowid();
    const everyBase = kbOf.every((kb) => allowed.has(kb));
    const answer = keywordTopK(this.topK, queryWords(query), {
      k: limit,
      everyFirst: false,
      accept: everyBase ? undefined : (rowid) => allowed.has(kbOf[rowid - 1]),
    });
    if (!answer) return undefined;
    const rows = this.passageTerms.all(JSON.stringify(answer.hits.map((hit) => hit.rowid))) as KeywordHit[];
    const terms = new Map(rows.map((row) => [row.rowid, row.terms]));
    return answer.hits.map((hit) => ({ rowid: hit.rowid, rank: -hit.score, terms: terms.get(hit.rowid) ?? '' }));
  }

  private ftsHits(expression: string, kbIds: string[], limit: number): KeywordHit[] {
    return this.keywordHits.all(expression, JSON.stringify(kbIds), limit) as KeywordHit[];
  }

  /** Exact cosine similarity against every passage vector of the allowed knowledge bases. */
  private async vectorSearch(query: string, allowed: ReadonlySet<string>, limit: number): Promise<Scored[]> {
    const vectors = this.vectors!;
    let queryVector = this.queryVectors.get(query);
    if (!queryVector) {
      queryVector = normalized((await this.embeddings!.embed([query]))[0]);
      this.queryVectors.set(query, queryVector);
    }
    if (queryVector.length !== this.dimension) return [];
    const kbOf = this.kbOfRowid();
    const best: Scored[] = [];
    const count = vectors.length / this.dimension;
    for (let index = 0; index < count; index += 1) {
      if (!allowed.has(kbOf[index])) continue;
      let dot = 0;
      const offset = index * this.dimension;
      for (let d = 0; d < this.dimension; d += 1) dot += vectors[offset + d] * queryVector[d];
      if (best.length < limit || dot > best[best.length - 1].score) {
        best.push({ rowid: index + 1, score: Math.max(0, Math.min(1, dot)) });
        best.sort((a, b) => b.score - a.score);
        if (best.length > limit) best.pop();
      }
    }
    return best;
  }

  private kbOfRowid(): string[] {
    this.kbOfRow ??= (this.db.prepare('SELECT kb_id FROM passages ORDER BY rowid').all() as { kb_id: string }[]).map(
      (row) => row.kb_id,
    );
    return this.kbOfRow;
  }

  private rows(rowids: number[]): Map<number, PassageRow> {
    if (rowids.length === 0) return new Map();
    const rows = this.passageRows.all(JSON.stringify(rowids)) as PassageRow[];
    return new Map(rows.map((row) => [row.rowid, row]));
  }
}

/** Unit length, so a dot product is the cosine similarity. */
export function normalized(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  return norm === 0 ? vector : vector.map((value) => value / norm);
}

function result(row: PassageRow, score: number, matchType: MatchType): KbSearchResult {
  return {
    id: `${row.kb_id}/${row.file}#${row.chunk_index}`,
    content: row.content,
    score: Math.round(score * 10000) / 10000,
    knowledge_id: `${row.kb_id}/${row.file}`,
    knowledge_title: row.title,
    knowledge_filename: row.file,
    knowledge_base_id: row.kb_id,
    match_type: matchType,
    chunk_index: row.chunk_index,
    heading_path: JSON.parse(row.heading) as string[],
    start_line: row.start_line,
    end_line: row.end_line,
  };
}

/** Counted once per knowledge base for `weknora_list_knowledge_bases`. */
export function describeBases(bases: LoadedBase[]): KnowledgeBase[] {
  return bases.map((base) => ({
    id: base.id,
    name: base.name,
    description: base.description,
    document_count: base.documents.length,
  }));
}
