import Database from 'better-sqlite3';

/**
 * Every SQLite database this service opens: an empty in-memory one, a copy of serialized bytes (a
 * snapshot another thread built), or a file (see `openDatabaseFile`). `SQLITE_NATIVE_BINDING` may name a `better_sqlite3.node` built for
 * another Node ABI — scripts/test-node22.sh runs the suite on Node 22 that way without touching the
 * Node 20 build in node_modules.
 */
export function openDatabase(serialized?: Uint8Array): Database.Database {
  const source = serialized ? Buffer.from(serialized.buffer, serialized.byteOffset, serialized.byteLength) : ':memory:';
  return new Database(source, nativeBindingOption());
}

/**
 * A database file: created when missing unless `readonly`, which also requires that it exists.
 *
 * A read-only file is an index, never written once built (a new build is a new file renamed into
 * place), so the connection takes its shared lock once and keeps it (`locking_mode = EXCLUSIVE`, which
 * for a reader that never writes holds only the shared lock; other readers are not blocked). Otherwise
 * every statement would lock and unlock the file and re-read its header: about 5 µs a statement here,
 * several times the cost of a rowid lookup.
 */
export function openDatabaseFile(file: string, readonly: boolean): Database.Database {
  const db = new Database(file, { ...nativeBindingOption(), readonly, fileMustExist: readonly });
  if (readonly) db.pragma('locking_mode = EXCLUSIVE');
  return db;
}

function nativeBindingOption(): Database.Options {
  const nativeBinding = process.env.SQLITE_NATIVE_BINDING;
  return nativeBinding ? { nativeBinding } : {};
}
