import { Logger } from '@nestjs/common';
import { ConceptType, KnCondition } from '../knowledge-network.types';
import { ConceptIndex, ScoredConcept } from './concept-index';
import { ConditionContext } from './condition-compiler';
import { Glossary } from './glossary';
import { InstanceQueryRunner } from './instance-query-runner';
import { ObjectTable } from './object-table';
import { VectorHit, VectorIndex } from './vector-index';

const RRF_K = 60;
const VECTOR_CANDIDATES = 50;
const rrf = (rank: number): number => 1 / (RRF_K + rank + 1);

/**
 * Keyword search alone, or keyword and vector search fused by reciprocal rank (k=60) when embeddings
 * are configured. Query vectors are computed before a condition is compiled so compiling stays synchronous.
 */
export class HybridSearch {
  private readonly logger = new Logger('HybridSearch');

  constructor(
    private readonly conceptIndex: ConceptIndex,
    private readonly query: InstanceQueryRunner,
    private readonly glossary: Glossary,
    private readonly vectors?: VectorIndex,
  ) {}

  async concepts(text: string, kinds: ReadonlySet<ConceptType>): Promise<ScoredConcept[]> {
    const keyword = this.conceptIndex.search(this.glossary.rewrite(text), kinds, (table) =>
      this.query.matchCoverage(table, text),
    );
    const queryVector = await this.embedOrSkip(text);
    if (!this.vectors || !queryVector) return keyword;
    const vector = this.vectors
      .nearestConcepts(queryVector, VECTOR_CANDIDATES)
      .map((hit) => this.conceptIndex.entries[hit.rowid - 1])
      .filter((entry) => entry && kinds.has(entry.concept_type));
    const fused = new Map<number, ScoredConcept>();
    const add = (entry: ScoredConcept['entry'], rank: number): void => {
      const known = fused.get(entry.rowid);
      fused.set(entry.rowid, { entry, score: (known?.score ?? 0) + rrf(rank) });
    };
    keyword.forEach((hit, rank) => add(hit.entry, rank));
    vector.forEach((entry, rank) => add(entry, rank));
    return [...fused.values()].sort((a, b) => b.score - a.score || a.entry.rowid - b.entry.rowid);
  }

  /** The compile context for one object type, with vector hits for `knn` leaves and `*` matches. */
  async context(condition: KnCondition | undefined, table: ObjectTable): Promise<ConditionContext> {
    const hits = new Map<KnCondition, VectorHit[]>();
    if (this.vectors) {
      for (const leaf of this.searchLeaves(condition)) {
        // knn cannot answer without its vector; a match still has its keywords.
        const vector =
          leaf.operation === 'knn'
            ? await this.vectors.embedQuery(String(leaf.value))
            : await this.embedOrSkip(String(leaf.value));
        if (!vector) continue;
        if (leaf.operation === 'knn') {
          const k =
            Number.isInteger(leaf.limit_value) && leaf.limit_value! > 0 ? Math.min(leaf.limit_value!, 1000) : 10;
          hits.set(leaf, this.vectors.nearestInstances(vector, k, table.index));
        } else {
          const nearest = this.vectors.nearestInstances(vector, VECTOR_CANDIDATES, table.index);
          hits.set(
            leaf,
            nearest.map((hit, rank) => ({ rowid: hit.rowid, score: rrf(rank) })),
          );
        }
      }
    }
    return {
      matchExpression: (target, column, text) => this.query.matchExpression(target, column, text),
      keywordTopK: (target, text, k) => this.query.keywordTopK(target, text, k),
      knnHits: this.vectors ? (leaf) => hits.get(leaf) ?? [] : undefined,
    };
  }

  /** The query's vector, or undefined (keyword-only for this request) when the endpoint fails. */
  private async embedOrSkip(text: string): Promise<Float32Array | undefined> {
    if (!this.vectors) return undefined;
    try {
      return await this.vectors.embedQuery(text);
    } catch (error) {
      this.logger.warn(`query embedding failed, keyword ranking only: ${(error as Error).message}`);
      return undefined;
    }
  }

  private searchLeaves(condition: KnCondition | undefined): KnCondition[] {
    const leaves: KnCondition[] = [];
    const visit = (node: unknown, depth: number): void => {
      if (!node || typeof node !== 'object' || depth > 10 || leaves.length > 16) return;
      const entry = node as KnCondition;
      const isSearch = entry.operation === 'knn' || (entry.operation === 'match' && entry.field === '*');
      if (isSearch && typeof entry.value === 'string' && entry.value.trim() !== '') leaves.push(entry);
      if (Array.isArray(entry.sub_conditions))
        entry.sub_conditions.slice(0, 256).forEach((sub) => visit(sub, depth + 1));
    };
    visit(condition, 0);
    return leaves;
  }
}
