import { Logger } from '@nestjs/common';
import { fusedSum, PhraseSum, separateSum } from './bm25';
import { FTS5_TOKENIZER } from './fts5-tokens';
import { buildImpactPostings } from './impact-postings';
import { openDatabase } from '../sqlite/open-database';
import { ImpactTopK } from './impact-top-k';

let detected: PhraseSum | null | undefined;

/**
 * How this SQLite build adds phrase scores, found by asking it: a small table is scored by `bm25()` and by
 * each candidate sum over its postings, and the sum that reproduces every score bit for bit is kept. None
 * (a future SQLite that scores differently) disables the postings: every search then runs in FTS5.
 */
export function fts5PhraseSum(): PhraseSum | undefined {
  if (detected === undefined) detected = detect() ?? null;
  return detected ?? undefined;
}

function detect(): PhraseSum | undefined {
  const db = openDatabase();
  try {
    db.exec(`CREATE VIRTUAL TABLE probe USING fts5(a, b, content='', tokenize='${FTS5_TOKENIZER}')`);
    const insert = db.prepare('INSERT INTO probe(rowid, a, b) VALUES (?, ?, ?)');
    const words = ['p', 'q', 'r', 's', 't', 'u'];
    let state = 17;
    const next = (): number => (state = (state * 48271) % 2147483647) / 2147483647;
    const text = (n: number): string =>
      Array.from({ length: n }, () => words[Math.floor(next() * next() * 6)]).join(' ');
    for (let rowid = 1; rowid <= 400; rowid += 1) insert.run(rowid, text(1 + (rowid % 3)), text(rowid % 17));
    buildImpactPostings(db, { fts: 'probe', postings: 'probe_postings', weights: new Map([['a', 3]]) });
    const expected = db
      .prepare(
        `SELECT rowid, -bm25(probe, 3.0) AS score FROM probe WHERE probe MATCH '"p" OR "q" OR "r" OR "s"' ORDER BY bm25(probe, 3.0), rowid`,
      )
      .all() as { rowid: number; score: number }[];
    const terms = ['p', 'q', 'r', 's'];
    for (const sum of [separateSum, fusedSum]) {
      const hits = new ImpactTopK(db, 'probe_postings', sum).search({ terms, every: false, k: expected.length }).hits;
      if (
        hits.length === expected.length &&
        hits.every((hit, i) => hit.rowid === expected[i].rowid && hit.score === expected[i].score)
      )
        return sum;
    }
    new Logger('Bm25').warn('FTS5 bm25() does not match the impact postings; keyword search scores every match');
    return undefined;
  } finally {
    db.close();
  }
}
