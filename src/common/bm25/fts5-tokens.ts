import type Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { openDatabase } from '../sqlite/open-database';

/** The tokenizer of every FTS5 table this service builds; the postings are keyed by its tokens. */
export const FTS5_TOKENIZER = 'unicode61 remove_diacritics 2';

// Words every FTS5 tokenizer keeps as one token unchanged: ASCII lower-case letters and digits, CJK ideographs.
const VERBATIM = /^[a-z0-9\u4e00-\u9fff]+$/;

/**
 * FTS5's own tokens for a query word, read back from a one-row scratch table with the same tokenizer,
 * so a posting lookup can never disagree with what `MATCH` would have searched (diacritics, case folding,
 * apostrophes and dots that split a word into a phrase).
 */
export class Fts5Tokens {
  private db?: Database.Database;
  private insert?: Database.Statement;
  private read?: Database.Statement;
  private clear?: Database.Statement;
  private readonly cache = new LRUCache<string, readonly string[]>({ max: 5000 });

  of(word: string): readonly string[] {
    if (VERBATIM.test(word)) return [word];
    let tokens = this.cache.get(word);
    if (!tokens) {
      tokens = Object.freeze(this.tokenize(word));
      this.cache.set(word, tokens);
    }
    return tokens;
  }

  private tokenize(word: string): string[] {
    if (!this.db) {
      this.db = openDatabase();
      this.db.exec(
        `CREATE VIRTUAL TABLE scratch USING fts5(x, tokenize='${FTS5_TOKENIZER}');` +
          "CREATE VIRTUAL TABLE scratch_tokens USING fts5vocab(scratch, 'instance');",
      );
      this.insert = this.db.prepare('INSERT INTO scratch(rowid, x) VALUES (1, ?)');
      this.read = this.db.prepare('SELECT term FROM scratch_tokens ORDER BY offset').pluck();
      this.clear = this.db.prepare('DELETE FROM scratch');
    }
    this.insert!.run(word);
    try {
      return this.read!.all() as string[];
    } finally {
      this.clear!.run();
    }
  }
}

/** One per thread: the scratch database is tiny and the cache is shared by every index of the thread. */
export const fts5Tokens = new Fts5Tokens();
