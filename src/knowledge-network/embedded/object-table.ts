import { DataProperty, ObjectType } from '../knowledge-network.types';
import { TEXT_TYPES } from './property-types';

/** bm25 weight of the display-name column relative to other text columns. */
const DISPLAY_WEIGHT = 5;

/**
 * How one object type is laid out in SQLite: table `ot_<n>` with `_rowid` and one typed column per data
 * property (`c0`, `c1`, …), and FTS table `fts_<n>` with a column per text property. Column names are
 * generated here, never taken from a request, so compiled SQL can only name known columns.
 */
export class ObjectTable {
  readonly table: string;
  readonly fts: string;
  /** Impact postings of `fts_<n>` (see buildImpactPostings): the keyword top k without scoring every match. */
  readonly postings: string;
  /** The `bm25` weights by FTS column, for the postings. */
  readonly ftsWeights: ReadonlyMap<string, number>;
  private readonly columns = new Map<string, string>();
  private readonly properties = new Map<string, DataProperty>();
  readonly textProperties: DataProperty[];
  /**
   * `bm25(fts_<n>, …)` with the display-name column weighted ×5, so a hit in the name (e.g. 2型糖尿病)
   * outranks one buried in a long description. Lower is better. Called directly rather than through
   * FTS5's configurable `rank`, which costs ~30 % more per scored row.
   */
  readonly bm25: string;
  /** The property an instance is shown by: the display key, or the first primary key when none is set. */
  readonly displayKey: string | undefined;
  /** Words in more than half of this type's instances: dropped from a search when rarer words remain. */
  commonTerms: ReadonlySet<string> = new Set();

  constructor(
    readonly index: number,
    readonly type: ObjectType,
  ) {
    this.table = `ot_${index}`;
    this.fts = `fts_${index}`;
    this.postings = `postings_${index}`;
    type.data_properties.forEach((property, position) => {
      this.columns.set(property.name, `c${position}`);
      this.properties.set(property.name, property);
    });
    this.textProperties = type.data_properties.filter((property) => TEXT_TYPES.has(property.type));
    this.displayKey = type.display_key ?? type.primary_keys[0];
    const weights = this.textProperties.map((property) => (property.name === this.displayKey ? DISPLAY_WEIGHT : 1));
    this.bm25 = `bm25(${this.fts}${weights.map((weight) => `, ${weight}`).join('')})`;
    this.ftsWeights = new Map(this.textProperties.map((property, i) => [this.columns.get(property.name)!, weights[i]]));
  }

  column(name: string): string | undefined {
    return this.columns.get(name);
  }

  property(name: string): DataProperty | undefined {
    return this.properties.get(name);
  }

  get propertyNames(): string[] {
    return this.type.data_properties.map((property) => property.name);
  }
}
