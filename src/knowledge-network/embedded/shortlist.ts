import { ObjectInstance } from '../knowledge-network.types';
import { nameMatcher } from '../name-match';
import { NameSignature, nameSignature } from './name-signatures';
import { ObjectTable } from './object-table';
import { fromSqlValue } from './property-types';
import { displayText } from './row-mapping';

/**
 * kn_search's cut per object type (InstanceQuery.shortlist): the first `first` instances, and past them
 * only those named like the query, or, without a relevance score, holding a value equal to it. The caller
 * ranks a scored instance by the larger of its relevance and its name match, and an unscored one by its
 * name or an equal value, so those are the only instances past the first few it could keep.
 */
export class Shortlist {
  readonly first: number;
  private readonly query: string;
  private readonly named: (name: string) => number;
  /** The display key's (or first primary key's) data property position; -1 when it is not one. */
  private readonly display: number;
  /** The query's characters as name signatures hold them (see NameSignatures). */
  readonly signature: NameSignature;

  constructor(
    private readonly table: ObjectTable,
    { first, named }: { first: number; named: string },
  ) {
    this.first = first;
    this.query = named;
    this.named = nameMatcher(named);
    this.signature = nameSignature(named);
    this.display = table.type.data_properties.findIndex((property) => property.name === table.displayKey);
  }

  /** Whether the instance at `position` of the answer is kept. */
  keepsInstance(position: number, instance: ObjectInstance): boolean {
    if (position < this.first || this.namedLike(instance._display ?? '')) return true;
    return typeof instance._score !== 'number' && Object.values(instance).some((value) => value === this.query);
  }

  /**
   * What `keepsScored` needs of a stored row, as a select list over alias `t`: `_rowid` and the display
   * key's column. A narrow read: the row's other values cannot change whether a scored row is kept.
   */
  probe(): string {
    return `t._rowid, ${this.display < 0 ? 'NULL' : `t.c${this.display}`}`;
  }

  /** `keepsInstance` past the first few for a row with a relevance score, decided on its `probe` columns. */
  keepsScored(probe: readonly unknown[]): boolean {
    const type = this.display < 0 ? undefined : this.table.type.data_properties[this.display].type;
    return this.namedLike(displayText(type === undefined ? undefined : fromSqlValue(probe[1], type)));
  }

  private namedLike(display: string): boolean {
    return display === this.query || this.named(display) > 0;
  }
}
