import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { keywordSearchCounts } from '../../common/bm25/keyword-top-k';
import { KnCondition } from '../knowledge-network.types';
import { ConditionCompiler, ConditionContext } from './condition-compiler';
import { IndexedNetwork } from './network-store';
import { indexNetwork } from './network-store-builder';
import { InstanceQueryRunner } from './instance-query-runner';
import { NetworkLoader } from './network-loader';
import { ObjectTable } from './object-table';
import { Shortlist } from './shortlist';

// The benchmark's own generator and vocabulary, so the ranking is checked on the data the bench measures.
/* eslint-disable @typescript-eslint/no-require-imports */
const { generateNetwork, parseArgs } = require('../../../bench/gen-network') as {
  generateNetwork(options: unknown): void;
  parseArgs(argv: string[]): { out: string };
};
const vocabulary = require('../../../bench/lib/vocabulary') as Record<string, string[]>;
/* eslint-enable @typescript-eslint/no-require-imports */

function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 48271) % 2147483647) / 2147483647;
}

/** 200 queries of 1–4 pieces from the generator's vocabulary, some with words FTS5 reads as phrases. */
function queries(): string[] {
  const next = random(5);
  const pool = [
    ...vocabulary.PRODUCT_WORDS,
    ...vocabulary.TEXT_WORDS,
    ...vocabulary.ADJECTIVES,
    ...vocabulary.CITIES,
    ...vocabulary.CATEGORIES,
    'v2.5',
    "customer's",
    'café',
    'zzzunknown',
  ];
  return Array.from({ length: 200 }, () =>
    Array.from({ length: 1 + Math.floor(next() * 4) }, () => pool[Math.floor(next() * pool.length)]).join(' '),
  );
}

describe('keyword top k from impact postings on a generated network', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'kn-topk-'));
  let network: IndexedNetwork;
  let runner: InstanceQueryRunner;
  const compiler = new ConditionCompiler();

  beforeAll(async () => {
    const options = parseArgs(['--instances', '6000', '--seed', '7', '--out', path.join(dir, 'synthetic')]);
    const log = console.log;
    console.log = () => undefined;
    generateNetwork(options);
    console.log = log;
    const loader = new NetworkLoader(dir);
    network = await indexNetwork(loader.load(options.out));
    runner = new InstanceQueryRunner(network.index);
  }, 120000);

  afterAll(() => {
    network?.index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const top = (table: ObjectTable, condition: KnCondition, context: ConditionContext, limit: number) =>
    runner.rows(table, compiler.compile(condition, table, context), limit).map((row) => [row._rowid, row._score]);

  const contexts = (limit: number) => {
    const fts: ConditionContext = {
      matchExpression: (table, column, text) => runner.matchExpression(table, column, text),
      matchCandidates: 1000,
      rankedLimit: limit,
    };
    return {
      fts,
      postings: { ...fts, keywordTopK: (table, text, k) => runner.keywordTopK(table, text, k) } as ConditionContext,
    };
  };

  it('ranks the top 10 of 200 queries as FTS5 bm25 does, on every object type', () => {
    const before = { ...keywordSearchCounts };
    const { fts, postings } = contexts(10);
    let compared = 0;
    for (const query of queries()) {
      for (const table of network.index.tables.values()) {
        if (table.textProperties.length === 0) continue;
        const match: KnCondition = { operation: 'match', field: '*', value: query };
        const expected = top(table, match, fts, 10);
        expect({ query, type: table.type.id, top: top(table, match, postings, 10) }).toEqual({
          query,
          type: table.type.id,
          top: expected,
        });
        compared += expected.length;
      }
    }
    expect(compared).toBeGreaterThan(1000);
    expect(keywordSearchCounts.postings).toBeGreaterThan(before.postings);
    expect(keywordSearchCounts.fts5Fallbacks).toBeGreaterThan(before.fts5Fallbacks);
  });

  it('keeps kn_search instance recall (match OR equality) and a filtered match equal to FTS5', () => {
    const { fts, postings } = contexts(50);
    for (const query of queries().slice(0, 60)) {
      for (const table of network.index.tables.values()) {
        const name = table.textProperties[0]?.name;
        if (!name) continue;
        const recall: KnCondition = {
          operation: 'or',
          sub_conditions: [
            { operation: 'match', field: '*', value: query },
            { operation: '==', field: name, value: query },
          ],
        };
        expect(top(table, recall, postings, 50)).toEqual(top(table, recall, fts, 50));
        const filtered: KnCondition = {
          operation: 'and',
          sub_conditions: [
            { operation: 'match', field: '*', value: query },
            { operation: 'exist', field: name },
          ],
        };
        expect(top(table, filtered, postings, 20)).toEqual(top(table, filtered, fts, 20));
      }
    }
  });

  it('puts the rows only an equality matches after the keyword hits, unscored, as FTS5 ranking does', () => {
    const { fts, postings } = contexts(50);
    let checked = 0;
    for (const table of network.index.tables.values()) {
      const key = table.type.primary_keys[0];
      if (!table.property(key) || table.textProperties.length === 0) continue;
      const rows = network.index.allRows(table);
      const other = rows[rows.length - 1][table.column(key)!] as string;
      for (const query of queries().slice(0, 30)) {
        // Also an equality on a row the keywords find: it is listed once, as a hit.
        const match: KnCondition = { operation: 'match', field: '*', value: query };
        const hit = top(table, match, postings, 50)[0]?.[0];
        const hitKey = rows.find((row) => row._rowid === hit)?.[table.column(key)!] ?? other;
        const recall: KnCondition = {
          operation: 'or',
          sub_conditions: [
            match,
            { operation: '==', field: key, value: other },
            { operation: '==', field: key, value: hitKey },
          ],
        };
        const expected = top(table, recall, fts, 50);
        expect({ query, top: top(table, recall, postings, 50) }).toEqual({ query, top: expected });
        if (expected.length < 50) checked += expected.filter(([, score]) => score === null).length;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('shortlists the instances it would keep of the whole list, past the keyword hits too', () => {
    const { postings } = contexts(50);
    let dropped = 0;
    let kept = 0;
    for (const query of queries().slice(0, 100)) {
      for (const table of network.index.tables.values()) {
        const key = table.type.primary_keys[0];
        if (table.textProperties.length === 0 || !table.property(key)) continue;
        const rows = network.index.allRows(table);
        // An equality past the hits, on a row named like nothing the query says: the shortlist drops it.
        const condition: KnCondition = {
          operation: 'or',
          sub_conditions: [
            { operation: 'match', field: '*', value: query },
            { operation: '==', field: key, value: rows[rows.length - 1][table.column(key)!] as string },
          ],
        };
        const compiled = compiler.compile(condition, table, postings);
        const shortlist = { first: 5, named: query };
        const whole = runner.instances(table, compiled, 50);
        const check = new Shortlist(table, shortlist);
        const expected = whole.filter((instance, position) => check.keepsInstance(position, instance));
        const shortlisted = runner.instances(table, compiled, 50, undefined, shortlist);
        expect({ query, shortlisted }).toEqual({ query, shortlisted: expected });
        dropped += whole.length - expected.length;
        kept += expected.length;
      }
    }
    expect(dropped).toBeGreaterThan(1000);
    expect(kept).toBeGreaterThan(1000);
  });

  it('gives hybrid search the same keyword ranks to fuse', () => {
    const { fts, postings } = contexts(10);
    const vector = (table: ObjectTable) => [
      { rowid: [...network.index.allRows(table)][3]._rowid as number, score: 1 / 61 },
    ];
    for (const query of queries().slice(0, 40)) {
      for (const table of network.index.tables.values()) {
        if (table.textProperties.length === 0) continue;
        const match: KnCondition = { operation: 'match', field: '*', value: query };
        const knnHits = () => vector(table);
        const fused = top(table, match, { ...postings, knnHits }, 10).map(([rowid]) => rowid);
        const reference = top(table, match, { ...fts, knnHits }, 10).map(([rowid]) => rowid);
        expect(new Set(fused)).toEqual(new Set(reference));
      }
    }
  });
});
