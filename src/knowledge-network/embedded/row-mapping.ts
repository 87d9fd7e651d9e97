import { ObjectInstance, ObjectType, ScoreChannels } from '../knowledge-network.types';
import { ObjectTable } from './object-table';
import { fromSqlValue } from './property-types';

/** A row as SQLite returns it: `_rowid`, the generated columns (`c0`, `c1`, …) and maybe `_score`. */
export type Row = Record<string, unknown>;

/** A stored row's data properties by name, typed back from their SQL values. */
export function rowValues(table: ObjectTable, row: Row): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const property of table.type.data_properties) {
    values[property.name] = fromSqlValue(row[table.column(property.name)!], property.type);
  }
  return values;
}

/** The primary-key values that identify an instance. */
export function instanceIdentity(type: ObjectType, values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(type.primary_keys.map((key) => [key, values[key]]));
}

/** The display key's value as text ('' when empty); the first primary key when no display key is set. */
export function instanceDisplay(table: ObjectTable, values: Record<string, unknown>): string {
  return displayText(table.displayKey === undefined ? undefined : values[table.displayKey]);
}

/** A display key's value as the text an instance shows: '' when empty. */
export function displayText(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

/**
 * A stored row's data properties by name from its column values in table order (`c0`, `c1`, …, as
 * `selectColumns` lists them after `_rowid`), typed back from their SQL values.
 */
export function columnValues(table: ObjectTable, columns: readonly unknown[], offset = 0): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const properties = table.type.data_properties;
  for (let position = 0; position < properties.length; position += 1) {
    values[properties[position].name] = fromSqlValue(columns[offset + position], properties[position].type);
  }
  return values;
}

/** `_rowid` and the data property columns in table order: the layout `columnValues` reads (offset 1). */
export function selectColumns(table: ObjectTable, alias = 't'): string {
  return [`${alias}._rowid`, ...table.type.data_properties.map((_, position) => `${alias}.c${position}`)].join(', ');
}

/** A stored row as an instance: properties (or the requested ones), identity and display. */
export function rowToInstance(table: ObjectTable, row: Row, properties?: string[]): ObjectInstance {
  const instance = valuesToInstance(table, rowValues(table, row), properties);
  if (typeof row._score === 'number') instance._score = row._score;
  if ('_score_keyword' in row || '_score_vector' in row) instance._score_channels = channelScores(row);
  return instance;
}

/** An instance from its typed property values: those (or the requested ones), its identity and display. */
export function valuesToInstance(
  table: ObjectTable,
  values: Record<string, unknown>,
  properties?: string[],
): ObjectInstance {
  const type = table.type;
  const wanted = properties && properties.length > 0 ? properties.filter((name) => table.property(name)) : undefined;
  const picked = wanted ? Object.fromEntries(wanted.map((name) => [name, values[name]])) : values;
  const instance: ObjectInstance = {
    ...picked,
    _instance_identity: instanceIdentity(type, values),
  };
  instance._display = instanceDisplay(table, values);
  return instance;
}

const rounded = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? Math.round(value * 10000) / 10000 : undefined;

/** Each channel's own score (bm25, cosine similarity) and the fused one; a channel that missed the row is absent. */
function channelScores(row: Row): ScoreChannels {
  const channels: ScoreChannels = {};
  const keyword = rounded(row._score_keyword);
  const vector = rounded(row._score_vector);
  const fused = rounded(row._score);
  if (keyword !== undefined) channels.keyword = keyword;
  if (vector !== undefined) channels.vector = vector;
  if (fused !== undefined) channels.fused = fused;
  return channels;
}
