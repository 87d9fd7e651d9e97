import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { PostingCache } from '../../common/bm25/posting-cache';
import { hasTable } from '../../common/sqlite/has-table';
import { normalizeText } from '../../common/text/normalize-text';
import { ObjectTable } from './object-table';
import { fromSqlValue } from './property-types';
import { displayText } from './row-mapping';

/**
 * Rows per stored chunk of signatures: two 32-bit words a row, 2 KB a chunk. Small, because a cold query
 * on a large network reads one chunk per row it tests (64 KB chunks cost a 10M-instance query more
 * copying than the reads they saved); on a small one every chunk soon sits in the PostingCache.
 */
const CHUNK_ROWS = 256;

/**
 * What the stored signatures were computed with: the searched form of a sample of the characters
 * normalizeText folds (full width, case, traditional Chinese) and the signature layout. A build by code
 * that folds differently has another fingerprint, and its signatures are not used (every row is read).
 */
const FINGERPRINT = createHash('sha256')
  .update(`v1 ${CHUNK_ROWS} ${normalizeText('ＡＢＣ１２３ Abc 年終獎 Ⅻ ﬁ ｶﾞ 「」')}`)
  .digest('hex')
  .slice(0, 16);

/** A name's characters in searched form, one of 64 bits each: `[low 32 bits, high 32 bits]`. */
export type NameSignature = readonly [number, number];

/** The signature of a name or a query as nameMatcher compares it (trimmed, then normalizeText). */
export function nameSignature(text: string): NameSignature {
  const searched = normalizeText(text.trim());
  let low = 0;
  let high = 0;
  for (let i = 0; i < searched.length; i += 1) {
    const bit = Math.imul(searched.charCodeAt(i), 0x9e3779b1) >>> 26;
    if (bit < 32) low |= 1 << bit;
    else high |= 1 << (bit - 32);
  }
  return [low >>> 0, high >>> 0];
}

/**
 * Whether a name of signature `[low, high]` can be named like a query of signature `query`:
 * nameMatcher's equal, contains and contained-in all need one side's characters to be among the
 * other's, so when neither signature holds the other, the name cannot match. The converse does not
 * hold: a pass only means the name is worth reading.
 */
export function mayBeNamed([low, high]: NameSignature, query: NameSignature): boolean {
  const [qLow, qHigh] = query;
  return ((qLow & ~low) | (qHigh & ~high)) === 0 || ((low & ~qLow) | (high & ~qHigh)) === 0;
}

const namesTable = (table: ObjectTable): string => `${table.table}_names`;

/**
 * At build, once a type's table is full: the signature of every row's display name (as the shortlist
 * reads it, see Shortlist.keepsScored), by rowid, in chunks of CHUNK_ROWS rows. A type without a
 * display column gets none.
 */
export function buildNameSignatures(db: Database.Database, table: ObjectTable): void {
  const position = table.type.data_properties.findIndex((property) => property.name === table.displayKey);
  if (position < 0) return;
  const type = table.type.data_properties[position].type;
  db.exec('CREATE TABLE IF NOT EXISTS name_signature_info (fingerprint TEXT NOT NULL)');
  if (!db.prepare('SELECT 1 FROM name_signature_info').get()) {
    db.prepare('INSERT INTO name_signature_info VALUES (?)').run(FINGERPRINT);
  }
  db.exec(`CREATE TABLE ${namesTable(table)} (chunk INTEGER PRIMARY KEY, data BLOB NOT NULL)`);
  const insert = db.prepare(`INSERT INTO ${namesTable(table)} VALUES (?, ?)`);
  const span = db.prepare(`SELECT min(_rowid), max(_rowid) FROM ${table.table}`).raw(true).get() as [
    number | null,
    number | null,
  ];
  // A chunk's rows at a time: a statement being iterated would keep the connection from inserting.
  const rows = db.prepare(`SELECT _rowid, c${position} FROM ${table.table} WHERE _rowid >= ? AND _rowid < ?`).raw(true);
  const [first, last] = span;
  if (first === null || last === null) return;
  db.transaction(() => {
    for (let chunk = Math.floor(first / CHUNK_ROWS); chunk <= Math.floor(last / CHUNK_ROWS); chunk += 1) {
      const words = new Uint32Array(2 * CHUNK_ROWS);
      for (const [rowid, value] of rows.all(chunk * CHUNK_ROWS, (chunk + 1) * CHUNK_ROWS) as [number, unknown][]) {
        const [low, high] = nameSignature(displayText(fromSqlValue(value, type)));
        const slot = 2 * (rowid - chunk * CHUNK_ROWS);
        words[slot] = low;
        words[slot + 1] = high;
      }
      insert.run(chunk, Buffer.from(words.buffer, words.byteOffset, words.byteLength));
    }
  })();
}

/**
 * The query side of a type's name signatures: which ranked rows past the shortlist's first few are
 * worth reading for their display name. Chunks are read when first needed and kept in the thread's
 * PostingCache; a row with no stored signature is always read.
 */
export class NameSignatures {
  private readonly chunk: Database.Statement;
  private readonly cache = new PostingCache();

  private constructor(db: Database.Database, table: ObjectTable) {
    this.chunk = db.prepare(`SELECT data FROM ${namesTable(table)} WHERE chunk = ?`).pluck(true);
  }

  /** The table's signatures, or undefined when the index has none usable (none built, or built otherwise). */
  static open(db: Database.Database, table: ObjectTable): NameSignatures | undefined {
    if (!hasTable(db, 'name_signature_info') || !hasTable(db, namesTable(table))) return undefined;
    const fingerprint = db.prepare('SELECT fingerprint FROM name_signature_info').pluck(true).get();
    return fingerprint === FINGERPRINT ? new NameSignatures(db, table) : undefined;
  }

  /** The rows of `rowids` whose display name may be named like the query of signature `query`. */
  candidates<T extends { rowid: number }>(rows: readonly T[], query: NameSignature): T[] {
    return rows.filter(({ rowid }) => {
      const chunk = Math.floor(rowid / CHUNK_ROWS);
      const words = this.cache.get(
        chunk,
        () => this.read(chunk),
        (read) => 16 + (read?.byteLength ?? 0),
      );
      if (!words) return true;
      const slot = 2 * (rowid - chunk * CHUNK_ROWS);
      return mayBeNamed([words[slot], words[slot + 1]], query);
    });
  }

  private read(chunk: number): Uint32Array | undefined {
    const blob = this.chunk.get(chunk) as Buffer | undefined;
    if (!blob) return undefined;
    // A view of SQLite's copy when it is aligned for 32-bit words, else one more copy that is.
    const aligned = blob.byteOffset % 4 === 0 ? blob : new Uint8Array(blob);
    return new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 4);
  }
}
