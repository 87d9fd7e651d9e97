import { Injectable } from '@nestjs/common';
import { CkbCircuit } from '../ckb-health/ckb-circuit';
import { CKB_MAX_DEPTH, CkbCodeGraph, GraphNeighbour } from './ckb-code-graph';
import { CkbAvailability } from '../ckb-health/ckb.types';
import { CodeIndexPort } from './code-index/code-index.port';
import { ChunkHit, CodeChunk } from './code-index/code-index.types';
import { relativeToRoot } from './code-path';
import { RetrievalTrace, ToolOutcome } from '../ckb-health/ckb-metadata';
import { CandidateSource, CodeCandidate, GraphRagRequest, GraphRagResult } from './code-tools.types';
import { bestPossibleScore, RankedList, weightedRrf } from './rrf-fusion';
import { FUSION_DEPTH, TOKEN_BUDGET } from './code-tools.limits';
import { fitToBudget } from './token-budget';

/** Hops the local import graph is expanded at most. */
export const LOCAL_MAX_DEPTH = 2;
const KEYWORD_LIMIT = 20;
const ANCHOR_FILES = 5;
const MAX_GRAPH_CHUNKS = 30;
// Keyword hits stand in for the reference's keyword + vector lists (0.3 + 0.5); the graph keeps 0.2.
const KEYWORD_WEIGHT = 0.8;
const GRAPH_WEIGHT = 0.2;

interface Expansion {
  ckb: CkbAvailability;
  source: Exclude<CandidateSource, 'keyword'> | 'none';
  depth: number;
  neighbours: GraphNeighbour[];
}

// Seed 001 REQ-MCP-001: ckb_available is true only when CKB's graph is used; depth 0 asks for no graph,
// which turns the integration off for this call (REQ-MCP-002 `disabled`) without contacting CKB.
const GRAPH_NOT_ASKED: CkbAvailability = { available: false, reason: 'disabled' };

const chunkKey = (chunk: CodeChunk): string => `${chunk.file}:${chunk.startLine}`;

/**
 * `ci_graph_rag` (seed 001, SPEC §8): keyword candidates from the code index, graph expansion through
 * CKB when it is available, else through the local import graph, fused by weighted RRF and trimmed to
 * a token budget.
 */
@Injectable()
export class CodeGraphRagService {
  constructor(
    private readonly index: CodeIndexPort,
    private readonly circuit: CkbCircuit,
    private readonly ckbGraph: CkbCodeGraph,
  ) {}

  async graphRag(request: GraphRagRequest): Promise<ToolOutcome<GraphRagResult>> {
    const requested = request.fusion_depth ?? FUSION_DEPTH.default;
    const hits = this.index.search(request.query, KEYWORD_LIMIT);
    const expansion = await this.expand(request.query, hits, requested);
    const graphChunks = this.graphChunks(expansion.neighbours, hits);
    const fused = this.fuse(hits, graphChunks, expansion.source);
    const { kept, tokens } = fitToBudget(fused, request.budget ?? TOKEN_BUDGET.default);
    const trace: RetrievalTrace = {
      ckb: expansion.ckb,
      fusionDepth: expansion.depth,
      totalCandidates: fused.length,
      extra: { keyword_candidates: hits.length, graph_candidates: graphChunks.length, token_count: tokens },
    };
    if (expansion.source !== 'ckb')
      trace.fallbackMode = expansion.source === 'local_graph' ? 'local_graph' : 'vector_only';
    if (expansion.depth < requested && expansion.source !== 'none') {
      trace.fusionDepthRequested = requested;
      trace.warning = `fusion_depth ${requested} lowered to ${expansion.depth}: the most ${expansion.source} supports`;
    }
    return { result: { candidates: kept }, trace };
  }

  private async expand(query: string, hits: ChunkHit[], requested: number): Promise<Expansion> {
    if (requested === 0) return { ckb: GRAPH_NOT_ASKED, source: 'none', depth: 0, neighbours: [] };
    const depth = Math.min(requested, CKB_MAX_DEPTH);
    const outcome = await this.circuit.run((ckb) => this.ckbGraph.expand(ckb, this.seeds(query, hits), depth));
    if (outcome.ok) return { ckb: { available: true }, source: 'ckb', depth, neighbours: outcome.value };
    if (this.index.status().edges === 0) return { ckb: outcome.availability, source: 'none', depth: 0, neighbours: [] };
    const localDepth = Math.min(requested, LOCAL_MAX_DEPTH);
    return {
      ckb: outcome.availability,
      source: 'local_graph',
      depth: localDepth,
      neighbours: this.importNeighbours(hits, localDepth),
    };
  }

  /** What to ask CKB's searchSymbols for: the symbols of the best hits, then the longer query words. */
  private seeds(query: string, hits: ChunkHit[]): string[] {
    const symbols = hits
      .map((hit) => hit.chunk.symbol)
      .filter((symbol): symbol is string => !!symbol)
      .slice(0, 3);
    const words = (query.match(/[A-Za-z_][A-Za-z0-9_]{2,}/g) ?? []).sort((a, b) => b.length - a.length).slice(0, 2);
    return [...new Set([...symbols, ...words])].slice(0, 5);
  }

  /** Breadth-first over import edges from the files of the best keyword hits. */
  private importNeighbours(hits: ChunkHit[], depth: number): GraphNeighbour[] {
    const anchors = [...new Set(hits.map((hit) => hit.chunk.file))].slice(0, ANCHOR_FILES);
    const seen = new Set(anchors);
    const neighbours: GraphNeighbour[] = [];
    let frontier = anchors;
    for (let distance = 1; distance <= depth && frontier.length > 0; distance += 1) {
      const next = frontier
        .flatMap((file) => this.index.importNeighbours(file))
        .filter((file) => !seen.has(file) && seen.add(file));
      neighbours.push(...next.map((file) => ({ file, distance })));
      frontier = next;
    }
    return neighbours;
  }

  /** Each neighbour as the chunk that best represents it, nearest first, without duplicates. */
  private graphChunks(neighbours: GraphNeighbour[], hits: ChunkHit[]): { chunk: CodeChunk; distance: number }[] {
    const root = this.index.root();
    const picked = new Map<string, { chunk: CodeChunk; distance: number }>();
    const ordered = [...neighbours].sort((a, b) => a.distance - b.distance);
    for (const neighbour of ordered) {
      const file = relativeToRoot(neighbour.file, root);
      const chunk = file ? this.representativeChunk(file, neighbour, hits) : undefined;
      if (chunk && !picked.has(chunkKey(chunk))) picked.set(chunkKey(chunk), { chunk, distance: neighbour.distance });
      if (picked.size >= MAX_GRAPH_CHUNKS) break;
    }
    return [...picked.values()];
  }

  private representativeChunk(file: string, neighbour: GraphNeighbour, hits: ChunkHit[]): CodeChunk | undefined {
    const chunks = this.index.chunksOfFile(file);
    if (chunks.length === 0) return undefined;
    const { line, symbol } = neighbour;
    return (
      (line !== undefined ? chunks.find((chunk) => chunk.startLine <= line && line <= chunk.endLine) : undefined) ??
      (symbol ? chunks.find((chunk) => chunk.symbol === symbol) : undefined) ??
      hits.find((hit) => hit.chunk.file === file)?.chunk ??
      this.chunkUsingHits(chunks, hits) ??
      chunks.find((chunk) => chunk.symbol !== null) ??
      chunks[0]
    );
  }

  /** For an import neighbour: the chunk that mentions the most symbols of the keyword hits (how it uses them). */
  private chunkUsingHits(chunks: CodeChunk[], hits: ChunkHit[]): CodeChunk | undefined {
    const names = [...new Set(hits.map((hit) => hit.chunk.symbol).filter((name): name is string => !!name))];
    let best: { chunk: CodeChunk; mentions: number } | undefined;
    for (const chunk of chunks.filter((entry) => entry.kind !== 'header')) {
      const mentions = names.filter((name) => chunk.content.includes(name)).length;
      if (mentions > 0 && (!best || mentions > best.mentions)) best = { chunk, mentions };
    }
    return best?.chunk;
  }

  private fuse(
    hits: ChunkHit[],
    graph: { chunk: CodeChunk; distance: number }[],
    source: Expansion['source'],
  ): CodeCandidate[] {
    const lists: RankedList[] = [
      { weight: KEYWORD_WEIGHT, keys: hits.map((hit) => chunkKey(hit.chunk)) },
      { weight: GRAPH_WEIGHT, keys: graph.map((entry) => chunkKey(entry.chunk)) },
    ];
    const scores = weightedRrf(lists);
    const best = bestPossibleScore(lists);
    const keywordKeys = new Set(lists[0].keys);
    const chunks = new Map<string, { chunk: CodeChunk; distance: number }>();
    hits.forEach((hit) => chunks.set(chunkKey(hit.chunk), { chunk: hit.chunk, distance: 0 }));
    graph.forEach((entry) => chunks.has(chunkKey(entry.chunk)) || chunks.set(chunkKey(entry.chunk), entry));
    const graphSource: CandidateSource = source === 'ckb' ? 'ckb' : 'local_graph';
    return [...chunks.entries()]
      .map(([key, { chunk, distance }]) => ({
        file: chunk.file,
        relevance: Math.round(Math.min(1, (scores.get(key) ?? 0) / best) * 1000) / 1000,
        content: chunk.content,
        source: keywordKeys.has(key) ? ('keyword' as const) : graphSource,
        distance,
        start_line: chunk.startLine,
        end_line: chunk.endLine,
        ...(chunk.symbol ? { symbol: chunk.symbol } : {}),
      }))
      .sort((a, b) => b.relevance - a.relevance);
  }
}
