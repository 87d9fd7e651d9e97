import { ObjectInstance } from '../knowledge-network.types';
import { nameMatcher } from '../name-match';
import { ObjectTable } from './object-table';
import { fromSqlValue } from './property-types';
import { displayText } from './row-mapping';

/**
 * kn_search's cut per object type (InstanceQuery.shortlist): the first `first` instances, and past them
 * only those named like the query or holding a value equal to it. The caller ranks by name match as well
 * as relevance, so those are the only rows past the first few it could keep.
 */
export class Shortlist {
  readonly first: number;
  private readonly query: string;
  private readonly named: (name: string) => number;
  /** The display key's (or first primary key's) data property position; -1 when it is not one. */
  private readonly display: number;
  /** Shown properties whose typed value is the stored one (compared in SQL), and JSON ones (parsed first). */
  private readonly plain: number[] = [];
  private readonly json: number[] = [];

  constructor(
    private readonly table: ObjectTable,
    { first, named }: { first: number; named: string },
    properties?: string[],
  ) {
    this.first = first;
    this.query = named;
    this.named = nameMatcher(named);
    const all = table.type.data_properties;
    this.display = all.findIndex((property) => property.name === table.displayKey);
    const shown =
      properties && properties.length > 0
        ? properties.filter((name) => table.property(name)).map((name) => all.indexOf(table.property(name)!))
        : all.map((_, position) => position);
    for (const position of new Set(shown)) {
      // A boolean reads back as true or false, never as the query's text.
      if (all[position].type === 'json') this.json.push(position);
      else if (all[position].type !== 'boolean') this.plain.push(position);
    }
  }

  /** Whether the instance at `position` of the answer is kept. */
  keepsInstance(position: number, instance: ObjectInstance): boolean {
    return (
      position < this.first ||
      this.named(instance._display ?? '') > 0 ||
      Object.values(instance).some((value) => value === this.query)
    );
  }

  /**
   * What `keepsInstance` needs of a stored row, as a select list over alias `t` with its parameters:
   * `_rowid`, the display key's column, whether a plain shown value equals the query (compared in SQL,
   * without reading the values out: `+` drops the column's affinity, so text equals text only, as `===`),
   * then the JSON columns. `keepsProbe` decides on such a row.
   */
  probe(): { columns: string; params: string[] } {
    const display = this.display < 0 ? 'NULL' : `t.c${this.display}`;
    const equal = this.plain.length === 0 ? '0' : this.plain.map((position) => `+t.c${position} = ?`).join(' OR ');
    const json = this.json.map((position) => `, t.c${position}`).join('');
    return {
      columns: `t._rowid, ${display}, (${equal})${json}`,
      params: this.plain.map(() => this.query),
    };
  }

  keepsProbe(probe: readonly unknown[]): boolean {
    const properties = this.table.type.data_properties;
    const display = displayText(this.display < 0 ? undefined : fromSqlValue(probe[1], properties[this.display].type));
    if (display === this.query || this.named(display) > 0 || probe[2] === 1) return true;
    return this.json.some((position, i) => fromSqlValue(probe[3 + i], 'json') === this.query);
  }
}
