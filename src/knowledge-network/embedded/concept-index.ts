import { ActionType, ConceptType, KnSchema, ObjectType, RelationType } from '../knowledge-network.types';
import { nameMatcher } from '../name-match';
import { NetworkIndex, ScoredRowid } from './network-index';
import { ObjectTable } from './object-table';
import { ftsQuery, segmentForIndex } from '../../common/search/text-segmenter';

export interface ConceptEntry {
  rowid: number;
  concept_type: ConceptType;
  id: string;
  name: string;
  detail: ObjectType | RelationType | ActionType;
  /** Text embedded for vector search (name, comment, and the words that describe it). */
  text: string;
}

export interface ScoredConcept {
  entry: ConceptEntry;
  score: number;
}

const CANDIDATES = 200;
/** Weight of an object type's best-matching instance against the match on its own name and description. */
const INSTANCE_EVIDENCE_WEIGHT = 1;
/** Added when an instance is named exactly as the query: the query names a thing of this type. */
const NAMED_INSTANCE_BONUS = 0.5;

/** How well one object type's instances match the query: 1 all words in one instance, 0.5 some, 0 none. */
export type InstanceCoverage = (table: ObjectTable) => number;

/** Concepts (object, relation and action types) in an FTS5 table weighted name > comment > body. */
export class ConceptIndex {
  readonly entries: ConceptEntry[] = [];

  constructor(private readonly index: NetworkIndex) {}

  /** Lists the schema's concepts and indexes their text. */
  build(schema: KnSchema): void {
    this.describe(schema);
    this.index.addConcepts(
      this.entries.map((entry) => ({
        rowid: entry.rowid,
        name: segmentForIndex(`${entry.detail.name} ${entry.detail.id}`),
        comment: segmentForIndex(entry.detail.comment ?? ''),
        body: segmentForIndex(entry.text),
      })),
    );
  }

  /** Lists the schema's concepts over an index that already holds their text (opened from a snapshot). */
  describe(schema: KnSchema): void {
    const objectName = new Map(schema.object_types.map((type) => [type.id, type.name]));
    for (const type of schema.object_types) {
      const words = type.data_properties.flatMap((p) => [p.name, p.display_name ?? '', p.comment ?? '']);
      this.add('object_type', type, [...(type.tags ?? []), ...words]);
    }
    for (const type of schema.relation_types) {
      const ends = [type.source_object_type_id, type.target_object_type_id];
      this.add('relation_type', type, [...(type.tags ?? []), ...ends, ...ends.map((id) => objectName.get(id) ?? '')]);
    }
    for (const type of schema.action_types) {
      this.add('action_type', type, [
        ...(type.tags ?? []),
        type.object_type_id,
        objectName.get(type.object_type_id) ?? '',
      ]);
    }
  }

  /**
   * BM25 over the AND of the query's words, or their OR when AND finds nothing; plus a name-match bonus;
   * plus, for object types, how well their best instance matches (relative to the best of any type), so a
   * type is found by its data as well as by its description.
   */
  search(query: string, kinds: ReadonlySet<ConceptType>, instanceCoverage?: InstanceCoverage): ScoredConcept[] {
    const run = (expression: string): ScoredRowid[] =>
      expression === '' ? [] : this.index.searchConcepts(expression, CANDIDATES);
    let rows = run(ftsQuery(query, 'AND'));
    if (rows.length === 0) rows = run(ftsQuery(query, 'OR'));
    const best = Math.max(...rows.map((row) => row.score), Number.EPSILON);
    const scored = new Map<number, number>(rows.map((row) => [row.rowid, row.score / best]));
    const byName = nameMatcher(query);
    for (const entry of this.entries) {
      const bonus = byName(entry.name);
      if (bonus > 0) scored.set(entry.rowid, (scored.get(entry.rowid) ?? 0) + bonus);
    }
    if (instanceCoverage && kinds.has('object_type')) {
      for (const [rowid, evidence] of this.instanceEvidence(query.trim(), instanceCoverage))
        scored.set(rowid, (scored.get(rowid) ?? 0) + INSTANCE_EVIDENCE_WEIGHT * evidence);
    }
    return [...scored.entries()]
      .map(([rowid, score]) => ({ entry: this.entries[rowid - 1], score }))
      .filter((hit) => kinds.has(hit.entry.concept_type))
      .sort((a, b) => b.score - a.score || a.entry.rowid - b.entry.rowid);
  }

  /**
   * Object type rowid → how well its instances match: 1 when one instance has every query word, 0.5 when
   * instances have only some; plus NAMED_INSTANCE_BONUS when an instance is named exactly as the query.
   * Coverage rather than BM25, because BM25 of different tables (other sizes, other word statistics) is
   * not comparable.
   */
  private instanceEvidence(query: string, instanceCoverage: InstanceCoverage): Map<number, number> {
    const evidence = new Map<number, number>();
    for (const entry of this.entries) {
      const table = entry.concept_type === 'object_type' ? this.index.table(entry.id) : undefined;
      if (!table || table.textProperties.length === 0) continue;
      let score = instanceCoverage(table);
      if (this.index.hasInstanceNamed(table, query)) score += NAMED_INSTANCE_BONUS;
      if (score > 0) evidence.set(entry.rowid, score);
    }
    return evidence;
  }

  private add(kind: ConceptType, detail: ObjectType | RelationType | ActionType, words: string[]): void {
    const text = [detail.name, detail.comment ?? '', ...words].filter((word) => word !== '').join(' ');
    this.entries.push({
      rowid: this.entries.length + 1,
      concept_type: kind,
      id: detail.id,
      name: detail.name,
      detail,
      text,
    });
  }
}
