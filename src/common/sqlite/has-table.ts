import type Database from 'better-sqlite3';

/** Whether the database holds a table of this name (an index written by older code may lack one). */
export function hasTable(db: Database.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}
