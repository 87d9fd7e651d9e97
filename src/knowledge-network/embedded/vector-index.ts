import { LRUCache } from 'lru-cache';
import { EmbeddingClient } from '../../common/search/embedding-client';
import { NetworkIndex, ScoredRowid } from './network-index';
import { VectorTable } from './network-tables';

export type VectorHit = ScoredRowid;

/**
 * Concept and instance embeddings in sqlite-vec `vec0` tables (cosine distance). Instance vectors carry
 * their object type number as a metadata column so a knn stays inside one type.
 */
export class VectorIndex {
  private dimension: number;
  private readonly queryVectors = new LRUCache<string, Float32Array>({ max: 1000 });

  /** `dimension` is given when the index was opened from a snapshot that already holds the vectors. */
  constructor(
    private readonly index: NetworkIndex,
    private readonly client: EmbeddingClient,
    dimension = 0,
  ) {
    index.enableVectors();
    this.dimension = dimension;
  }

  /** Vector length, 0 until the first vectors are added. */
  get vectorSize(): number {
    return this.dimension;
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
    return this.dimension === 0 ? [] : this.index.nearestVectors('concept_vec', vector, k);
  }

  nearestInstances(vector: Float32Array, k: number, ot: number): VectorHit[] {
    return this.dimension === 0 ? [] : this.index.nearestVectors('instance_vec', vector, k, ot);
  }

  private async add(table: VectorTable, entries: { rowid: number; text: string; ot: number }[]): Promise<void> {
    if (entries.length === 0) return;
    const vectors = await this.client.embed(entries.map((entry) => entry.text.slice(0, 2000)));
    if (this.dimension === 0) this.dimension = vectors[0].length;
    const rows = entries
      .map((entry, i) => ({ rowid: entry.rowid, ot: entry.ot, vector: vectors[i] }))
      .filter((row) => row.vector.length === this.dimension);
    this.index.addVectors(table, this.dimension, rows);
  }
}
