import { ConceptType, KnCondition, ScoreChannels } from '../knowledge-network.types';
import { ConceptIndex, ScoredConcept } from './concept-index';
import { CandidateHit, ConditionContext } from './condition-compiler';
import { Glossary } from './glossary';
import { InstanceQueryRunner } from './instance-query-runner';
import { ObjectTable } from './object-table';
import { VectorIndex } from './vector-index';

const RRF_K = 60;
const VECTOR_CANDIDATES = 50;
const rrf = (rank: number): number => 1 / (RRF_K + rank + 1);
const rounded = (value: number): number => Math.round(value * 10000) / 10000;

/** Query text → its vector, computed on the request thread (which counts and logs a failed embedding). */
export type QueryVectors = Record<string, number[]>;

/** A concept hit with what each channel scored it. */
export interface ChannelScoredConcept extends ScoredConcept {
  channels?: ScoreChannels;
}

/**
 * Keyword search alone, or keyword and vector search fused by weighted reciprocal rank (k=60) when the
 * network has vectors: fused = 2·((1−w)/(60+keyword rank) + w/(60+vector rank)), w = HYBRID_VECTOR_WEIGHT,
 * so the default 0.5 is plain RRF. Query vectors arrive with the call; a text without one (the endpoint
 * failed) is searched by keywords alone.
 */
export class HybridSearch {
  private readonly keywordWeight: number;
  private readonly vectorWeight: number;

  constructor(
    private readonly conceptIndex: ConceptIndex,
    private readonly query: InstanceQueryRunner,
    private readonly glossary: Glossary,
    private readonly vectors?: VectorIndex,
    vectorShare = 0.5,
  ) {
    this.keywordWeight = 2 * (1 - vectorShare);
    this.vectorWeight = 2 * vectorShare;
  }

  concepts(text: string, kinds: ReadonlySet<ConceptType>, queryVector?: number[]): ChannelScoredConcept[] {
    const keyword = this.conceptIndex.search(this.glossary.rewrite(text), kinds, (table) =>
      this.query.matchCoverage(table, text),
    );
    if (!this.vectors) return keyword;
    const fused = new Map<number, ChannelScoredConcept & { channels: ScoreChannels }>();
    const add = (entry: ScoredConcept['entry'], score: number, channel: 'keyword' | 'vector', raw: number): void => {
      const known = fused.get(entry.rowid) ?? { entry, score: 0, channels: {} };
      known.score += score;
      known.channels[channel] = rounded(raw);
      fused.set(entry.rowid, known);
    };
    keyword.forEach((hit, rank) => add(hit.entry, this.keywordWeight * rrf(rank), 'keyword', hit.score));
    if (queryVector) {
      this.vectors
        .nearestConcepts(Float32Array.from(queryVector), VECTOR_CANDIDATES)
        .map((hit) => ({ hit, entry: this.conceptIndex.entries[hit.rowid - 1] }))
        .filter(({ entry }) => entry && kinds.has(entry.concept_type))
        .forEach(({ hit, entry }, rank) => add(entry, this.vectorWeight * rrf(rank), 'vector', hit.score));
    }
    return [...fused.values()]
      .map((hit) => ({ ...hit, channels: { ...hit.channels, fused: rounded(hit.score) } }))
      .sort((a, b) => b.score - a.score || a.entry.rowid - b.entry.rowid);
  }

  /** The compile context for one object type, with vector hits for `knn` leaves and `*` matches. */
  context(condition: KnCondition | undefined, table: ObjectTable, queryVectors: QueryVectors = {}): ConditionContext {
    const base: ConditionContext = {
      matchExpression: (target, column, text) => this.query.matchExpression(target, column, text),
      keywordTopK: (target, text, k) => this.query.keywordTopK(target, text, k),
    };
    if (!this.vectors) return base;
    const hits = new Map<KnCondition, CandidateHit[]>();
    const leaves = searchLeaves(condition);
    const matched = new Set(leaves.filter((leaf) => leaf.operation === 'match').map((leaf) => String(leaf.value)));
    for (const leaf of leaves) {
      const vector = Object.hasOwn(queryVectors, String(leaf.value)) ? queryVectors[String(leaf.value)] : undefined;
      // Without its vector a knn leaf matches nothing; a match still has its keywords.
      if (!vector) {
        if (leaf.operation === 'knn') hits.set(leaf, []);
        continue;
      }
      const query = Float32Array.from(vector);
      if (leaf.operation === 'knn') {
        const k = Number.isInteger(leaf.limit_value) && leaf.limit_value! > 0 ? Math.min(leaf.limit_value!, 1000) : 10;
        const nearest = this.vectors.nearestInstances(query, k, table.index);
        // Next to a `*` match of the same text (as kn_search sends), the match already fuses the vector
        // ranks: the knn only adds candidates, or its cosines would outweigh every reciprocal rank.
        hits.set(
          leaf,
          matched.has(String(leaf.value))
            ? nearest.map((hit) => ({ rowid: hit.rowid, score: 0, raw: hit.score }))
            : nearest,
        );
      } else {
        const nearest = this.vectors.nearestInstances(query, VECTOR_CANDIDATES, table.index);
        hits.set(
          leaf,
          nearest.map((hit, rank) => ({ rowid: hit.rowid, score: this.vectorWeight * rrf(rank), raw: hit.score })),
        );
      }
    }
    return {
      ...base,
      knnHits: (leaf) => hits.get(leaf),
      keywordWeight: this.keywordWeight,
      scoreChannels: true,
    };
  }
}

/** The `knn` leaves and `*` matches of a condition whose text a vector can search (bounded walk). */
export function searchLeaves(condition: unknown): KnCondition[] {
  const leaves: KnCondition[] = [];
  const visit = (node: unknown, depth: number): void => {
    if (!node || typeof node !== 'object' || depth > 10 || leaves.length > 16) return;
    const entry = node as KnCondition;
    const isSearch = entry.operation === 'knn' || (entry.operation === 'match' && entry.field === '*');
    if (isSearch && typeof entry.value === 'string' && entry.value.trim() !== '') leaves.push(entry);
    if (Array.isArray(entry.sub_conditions)) entry.sub_conditions.slice(0, 256).forEach((sub) => visit(sub, depth + 1));
  };
  visit(condition, 0);
  return leaves;
}
