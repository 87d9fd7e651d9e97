import { Injectable } from '@nestjs/common';
import { CkbPort } from '../ckb-health/ckb.port';
import { CkbLocatedItem, locatedItems } from './ckb-result.parse';
import { CallChainResult, CallDirection } from './code-tools.types';

/** CKB's getCallGraph accepts depth 1–4. */
export const CKB_MAX_DEPTH = 4;
const MAX_SEED_SYMBOLS = 5;
const SEARCH_LIMIT = 5;
const REFERENCE_LIMIT = 20;

/** A file (optionally a line or symbol in it) reached through a graph, `distance` hops from a seed. */
export interface GraphNeighbour {
  file: string;
  line?: number;
  symbol?: string;
  distance: number;
}

const toNeighbour = (item: CkbLocatedItem, distance: number): GraphNeighbour => ({
  file: item.file,
  line: item.line,
  symbol: item.name,
  distance,
});

/**
 * Graph-RAG and call chains through CKB's core tools. CKB works on symbols, so text seeds are first
 * mapped to symbol ids with `searchSymbols`, then expanded with `getCallGraph` and `findReferences`.
 */
@Injectable()
export class CkbCodeGraph {
  async expand(ckb: CkbPort, seeds: string[], depth: number): Promise<GraphNeighbour[]> {
    const symbols = await this.findSymbols(ckb, seeds);
    const expansions = await Promise.all(
      symbols.map(async (symbol) => {
        const [graph, references] = await Promise.all([
          ckb.callTool('getCallGraph', { symbolId: symbol.id, direction: 'both', depth }),
          ckb.callTool('findReferences', { symbolId: symbol.id, limit: REFERENCE_LIMIT }),
        ]);
        const graphItems = locatedItems(graph).filter((item) => item.id !== symbol.id);
        return [
          ...graphItems.map((item) => toNeighbour(item, Math.min(Math.max(item.depth ?? 1, 1), depth))),
          ...locatedItems(references).map((item) => toNeighbour(item, 1)),
        ];
      }),
    );
    return [...symbols.map((symbol) => toNeighbour(symbol, 0)), ...expansions.flat()];
  }

  async callChain(
    ckb: CkbPort,
    symbol: string,
    direction: CallDirection,
    depth: number,
  ): Promise<Omit<CallChainResult, 'symbol' | 'direction'>> {
    const found = locatedItems(await ckb.callTool('searchSymbols', { query: symbol, limit: SEARCH_LIMIT * 2 }));
    const target = found.find((item) => item.id && item.name === symbol) ?? found.find((item) => item.id);
    if (!target?.id) return { definitions: [], callers: [], callees: [] };
    const graph = locatedItems(await ckb.callTool('getCallGraph', { symbolId: target.id, direction, depth }));
    const related = graph.filter((item) => item.id !== target.id);
    const inRole = (role: 'callers' | 'callees'): CkbLocatedItem[] =>
      related.filter((item) => item.role === role || (!item.role && direction === role));
    const asNode = (item: CkbLocatedItem) => ({
      ...toNeighbour(item, Math.max(item.depth ?? 1, 1)),
      symbol: item.name ?? item.id ?? '',
    });
    return {
      definitions: [{ ...toNeighbour(target, 0), symbol: target.name ?? symbol }],
      callers: direction === 'callees' ? [] : inRole('callers').map(asNode),
      callees: direction === 'callers' ? [] : inRole('callees').map(asNode),
    };
  }

  private async findSymbols(ckb: CkbPort, seeds: string[]): Promise<(CkbLocatedItem & { id: string })[]> {
    const results = await Promise.all(
      seeds.map((query) => ckb.callTool('searchSymbols', { query, limit: SEARCH_LIMIT })),
    );
    const byId = new Map<string, CkbLocatedItem & { id: string }>();
    for (const item of results.flatMap(locatedItems)) {
      if (item.id && !byId.has(item.id)) byId.set(item.id, { ...item, id: item.id });
    }
    return [...byId.values()].slice(0, MAX_SEED_SYMBOLS);
  }
}
