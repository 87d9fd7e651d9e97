import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { KnowledgeNetworkPort } from '../knowledge-network/knowledge-network.port';
import { InstanceQuery } from '../knowledge-network/knowledge-network.types';
import { NetworkLoader } from '../knowledge-network/embedded/network-loader';
import { NetworkStore } from '../knowledge-network/embedded/network-store';
import { indexNetwork } from '../knowledge-network/embedded/network-store-builder';
import { InstanceRecall } from './instance-recall';
import { retrievalSettings } from './retrieval-config';

/* eslint-disable @typescript-eslint/no-require-imports */
const { generateNetwork, parseArgs } = require('../../bench/gen-network') as {
  generateNetwork(options: unknown): void;
  parseArgs(argv: string[]): { out: string };
};
const vocabulary = require('../../bench/lib/vocabulary') as Record<string, string[]>;
/* eslint-enable @typescript-eslint/no-require-imports */

describe('kn_search instance shortlist', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'kn-shortlist-'));
  let store: NetworkStore;

  beforeAll(async () => {
    const options = parseArgs(['--instances', '4000', '--seed', '3', '--out', path.join(dir, 'synthetic')]);
    const log = console.log;
    console.log = () => undefined;
    generateNetwork(options);
    console.log = log;
    store = new NetworkStore(await indexNetwork(new NetworkLoader(dir).load(options.out)));
  }, 120000);

  afterAll(() => {
    store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A port over the real store that honours the shortlist, or drops it (as an adapter may). */
  const port = (honour: boolean, shipped: number[]) =>
    Object.setPrototypeOf(
      {
        queryInstances: async (_knId: string, otId: string, query: InstanceQuery) => {
          const answer = await store.queryInstances(otId, honour ? query : { ...query, shortlist: undefined });
          shipped.push(answer.datas.length);
          return answer;
        },
      },
      KnowledgeNetworkPort.prototype,
    ) as KnowledgeNetworkPort;

  it('recalls the same nodes whether the store sends only the shortlist or every candidate', async () => {
    const settings = retrievalSettings(undefined);
    const types = store.schema.object_types;
    const names = ['PR0000002', 'S0000001', ...vocabulary.CITIES.slice(0, 3)];
    const queries = [
      ...vocabulary.PRODUCT_WORDS.slice(0, 30).map((word, i) => `${word} ${vocabulary.TEXT_WORDS[i]}`),
      ...names,
    ];
    const short: number[] = [];
    const full: number[] = [];
    for (const query of queries) {
      const shortlisted = await new InstanceRecall(port(true, short)).recall('synthetic', query, types, settings);
      const everything = await new InstanceRecall(port(false, full)).recall('synthetic', query, types, settings);
      expect({ query, nodes: shortlisted }).toEqual({ query, nodes: everything });
    }
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
    expect(sum(short)).toBeLessThan(sum(full) / 2);
  });
});
