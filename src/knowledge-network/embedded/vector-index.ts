import { LRUCache } from 'lru-cache';
import * as sqliteVec from 'sqlite-vec';
import { EmbeddingClient } from './embedding-client';
import { NetworkIndex } from './network-index';

export interface VectorHit {
  rowid: number;
  score: number;
}

const blob = (vector: Float32Array): Buffer =>
  Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);

/**
 * Concept and instance embeddings in sqlite-vec `vec0` tables (cosine distance). Instance vectors carry
 * their object type number as a metadata column so a knn stays inside one type.
 */
export class VectorIndex {
  private dimension = 0;
  private readonly queryVectors = new LRUCache<string, Float32Array>({ max: 1000 });

  constructor(
    private readonly index: NetworkIndex,
    private readonly client: EmbeddingClient,
  ) {
    sqliteVec.load(index.db);
  }

  async addConcepts(entries: { rowid: number; text: string }[]): Promise<void> {
    await this.add(
      'concept_vec',
      entries.map((entry) => ({ ...entry, ot: 0 })),
    );
  }

  async addInstances(entries: { rowid: number; text: string; ot: number }[]): Promise<void> {
    await this.add('instance_vec', entries);
  }

  /** A query's vector; recent queries are remembered so a repeated question costs no upstream call. */
  async embedQuery(text: string): Promise<Float32Array> {
    const known = this.queryVectors.get(text);
    if (known) return known;
    const vector = (await this.client.embed([text]))[0];
    this.queryVectors.set(text, vector);
    return vector;
  }

  nearestConcepts(vector: Float32Array, k: number): VectorHit[] {
    return this.nearest(
      'SELECT rowid, distance FROM concept_vec WHERE embedding MATCH ? AND k = ?',
      [blob(vector), k],
    );
  }

  nearestInstances(vector: Float32Array, k: number, ot: number): VectorHit[] {
    return this.nearest(
      'SELECT rowid, distance FROM instance_vec WHERE embedding MATCH ? AND k = ? AND ot = ?',
      [blob(vector), k, BigInt(ot)],
    );
  }

  private nearest(sql: string, params: unknown[]): VectorHit[] {
    if (this.dimension === 0) return [];
    const rows = this.index.prepare(sql).all(...params) as { rowid: number; distance: number }[];
    return rows.map((row) => ({ rowid: Number(row.rowid), score: 1 - row.distance }));
  }

  private async add(
    table: string,
    entries: { rowid: number; text: string; ot: number }[],
  ): Promise<void> {
    if (entries.length === 0) return;
    const vectors = await this.client.embed(entries.map((entry) => entry.text.slice(0, 2000)));
    if (this.dimension === 0) this.dimension = vectors[0].length;
    this.ensureTable('concept_vec');
    this.ensureTable('instance_vec');
    const insert = this.index.db.prepare(
      `INSERT INTO ${table}(rowid, embedding, ot) VALUES (?, ?, ?)`,
    );
    this.index.db.transaction(() => {
      entries.forEach((entry, i) => {
        if (vectors[i].length !== this.dimension) return;
        insert.run(BigInt(entry.rowid), blob(vectors[i]), BigInt(entry.ot));
      });
    })();
  }

  private ensureTable(table: string): void {
    this.index.db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING vec0(embedding float[${this.dimension}] distance_metric=cosine, ot integer)`,
    );
  }
}
