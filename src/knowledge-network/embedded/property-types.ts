import { ConditionOperation } from '../knowledge-network.types';

export type PropertyType =
  'string' | 'text' | 'integer' | 'float' | 'decimal' | 'boolean' | 'date' | 'time' | 'datetime' | 'json' | 'binary';

const TYPE_ALIASES: Record<string, PropertyType> = {
  string: 'string',
  varchar: 'string',
  char: 'string',
  keyword: 'string',
  text: 'text',
  integer: 'integer',
  int: 'integer',
  long: 'integer',
  bigint: 'integer',
  float: 'float',
  double: 'float',
  number: 'float',
  decimal: 'decimal',
  boolean: 'boolean',
  bool: 'boolean',
  date: 'date',
  time: 'time',
  datetime: 'datetime',
  timestamp: 'datetime',
  json: 'json',
  binary: 'binary',
};

/** The canonical BKN data type for a declared one (case-insensitive, common aliases), or undefined. */
export function canonicalType(declared: string): PropertyType | undefined {
  return TYPE_ALIASES[declared.trim().toLowerCase()];
}

export const TEXT_TYPES: ReadonlySet<string> = new Set(['string', 'text']);
const ORDERED_TYPES: ReadonlySet<string> = new Set(['integer', 'float', 'decimal', 'date', 'time', 'datetime']);

/** Operations a condition may apply to a property of this type (`knn` only when vectors exist). */
export function operationsForType(type: string, withKnn: boolean): ConditionOperation[] {
  const presence: ConditionOperation[] = ['exist', 'not_exist'];
  if (TEXT_TYPES.has(type)) {
    const text: ConditionOperation[] = ['==', '!=', 'in', 'not_in', 'like', 'not_like', 'match', ...presence];
    return withKnn ? [...text, 'knn'] : text;
  }
  if (ORDERED_TYPES.has(type)) return ['==', '!=', '>', '>=', '<', '<=', 'in', 'not_in', 'range', ...presence];
  if (type === 'boolean') return ['==', '!=', ...presence];
  return presence;
}

/** SQLite column affinity for a property type. */
export function sqliteAffinity(type: string): 'INTEGER' | 'REAL' | 'TEXT' {
  if (type === 'integer' || type === 'boolean') return 'INTEGER';
  if (type === 'float' || type === 'decimal') return 'REAL';
  return 'TEXT';
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;
const TRUE_WORDS = new Set(['true', '1', 'yes', 'y', 't', '是']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'n', 'f', '否']);

/** Converts one CSV cell to its typed value; throws a message (no location) when it does not fit. */
export function parseTypedValue(raw: string, type: string): unknown {
  const text = raw.trim();
  if (text === '') return null;
  switch (type) {
    case 'integer':
      if (!/^[-+]?\d+$/.test(text)) throw new Error(`"${text}" is not an integer`);
      return Number(text);
    case 'float':
    case 'decimal':
      if (!Number.isFinite(Number(text))) throw new Error(`"${text}" is not a number`);
      return Number(text);
    case 'boolean': {
      const word = text.toLowerCase();
      if (TRUE_WORDS.has(word)) return true;
      if (FALSE_WORDS.has(word)) return false;
      throw new Error(`"${text}" is not a boolean (true/false)`);
    }
    case 'date':
      if (!DATE.test(text) || Number.isNaN(Date.parse(text))) throw new Error(`"${text}" is not a date (YYYY-MM-DD)`);
      return text;
    case 'time':
      if (!TIME.test(text)) throw new Error(`"${text}" is not a time (HH:MM[:SS])`);
      return text;
    case 'datetime':
      if (Number.isNaN(Date.parse(text))) throw new Error(`"${text}" is not an ISO 8601 date-time`);
      return text;
    case 'json':
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new Error(`"${text.slice(0, 40)}" is not valid JSON`);
      }
    default:
      return raw;
  }
}

/** The value as stored in SQLite (booleans as 0/1, JSON as text). */
export function toSqlValue(value: unknown, type: string): string | number | null {
  if (value === null || value === undefined) return null;
  if (type === 'boolean') return value ? 1 : 0;
  if (type === 'json') return JSON.stringify(value);
  return value as string | number;
}

/** The value as returned to callers (inverse of toSqlValue). */
export function fromSqlValue(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'boolean') return value === 1 || value === true;
  if (type === 'json' && typeof value === 'string') return JSON.parse(value) as unknown;
  return value;
}
