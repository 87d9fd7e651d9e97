import type Database from 'better-sqlite3';
import { openDatabaseFile } from '../../common/sqlite/open-database';

/** The primary keys of one data file seen so far, each with the line it was first seen on. */
export interface PrimaryKeySet {
  /** Records `key` as first seen on `line`; when it was seen before, returns that earlier line instead. */
  firstLine(key: string, line: number): number | undefined;
  close(): void;
}

/** In the heap: for networks loaded into memory, whose rows are all held anyway. */
export class MemoryKeySet implements PrimaryKeySet {
  private readonly seen = new Map<string, number>();

  firstLine(key: string, line: number): number | undefined {
    const first = this.seen.get(key);
    if (first === undefined) this.seen.set(key, line);
    return first;
  }

  close(): void {
    this.seen.clear();
  }
}

/** Pages of the key table kept in memory; the rest spill to the temporary file. */
const CACHE_KIB = 32 * 1024;

/**
 * In a private temporary SQLite database on disk (deleted when closed), for a build that streams rows
 * into an index file: a data file of any size is checked with bounded memory.
 */
export class DiskKeySet implements PrimaryKeySet {
  private readonly db: Database.Database;
  private readonly insert: Database.Statement;
  private readonly lookup: Database.Statement;

  constructor() {
    // SQLite's '' filename: an anonymous database in a temporary file, never journaled or synced.
    this.db = openDatabaseFile('', false);
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.pragma(`cache_size = -${CACHE_KIB}`);
    this.db.exec('CREATE TABLE seen (key TEXT PRIMARY KEY, line INTEGER NOT NULL) WITHOUT ROWID');
    this.insert = this.db.prepare('INSERT INTO seen (key, line) VALUES (?, ?) ON CONFLICT DO NOTHING');
    this.lookup = this.db.prepare('SELECT line FROM seen WHERE key = ?').pluck();
    this.db.exec('BEGIN');
  }

  firstLine(key: string, line: number): number | undefined {
    if (this.insert.run(key, line).changes > 0) return undefined;
    return this.lookup.get(key) as number;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
