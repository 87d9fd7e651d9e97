import { CodeIndexPort } from './code-index/code-index.port';
import { CodeChunk } from './code-index/code-index.types';
import { CallChainNode, CallChainResult, CallDirection } from './code-tools.types';

const CALL = /(?:^|[^\w$.])([A-Za-z_$][\w$]*)\s*\(|\.([A-Za-z_$][\w$]*)\s*\(/g;
const KEYWORDS = new Set([
  'if',
  'for',
  'while',
  'switch',
  'catch',
  'return',
  'function',
  'typeof',
  'new',
  'super',
  'print',
  'len',
]);
const MAX_NODES_PER_HOP = 50;

const asNode = (chunk: CodeChunk, distance: number): CallChainNode => ({
  symbol: chunk.symbol ?? '',
  file: chunk.file,
  line: chunk.startLine,
  distance,
});

/** Names a chunk calls, in order of first appearance. */
function calledNames(chunk: CodeChunk): string[] {
  const body = chunk.content.split('\n').slice(1).join('\n');
  const names = [...body.matchAll(CALL)].map((match) => match[1] ?? match[2]);
  return [...new Set(names)].filter((name) => !KEYWORDS.has(name) && name !== chunk.symbol);
}

/**
 * Call chains from the code index alone, used when CKB is not: callers are chunks whose text calls the
 * symbol (a reference search), callees are the indexed definitions of the names its body calls.
 */
export class LocalCallGraph {
  constructor(private readonly index: CodeIndexPort) {}

  trace(qualified: string, direction: CallDirection, depth: number): Omit<CallChainResult, 'symbol' | 'direction'> {
    // The index knows plain names: `Warehouse.take` is looked up as `take`.
    const symbol = qualified.split('.').pop() ?? qualified;
    const definitions = this.index.definitions(symbol).map((chunk) => asNode(chunk, 0));
    return {
      definitions,
      callers: direction === 'callees' ? [] : this.walk(symbol, depth, (name) => this.callersOf(name)),
      callees: direction === 'callers' ? [] : this.walk(symbol, depth, (name) => this.calleesOf(name)),
    };
  }

  private walk(symbol: string, depth: number, step: (name: string) => CodeChunk[]): CallChainNode[] {
    const seen = new Set<string>([symbol]);
    const nodes: CallChainNode[] = [];
    let frontier = [symbol];
    for (let distance = 1; distance <= depth && frontier.length > 0; distance += 1) {
      const next: string[] = [];
      for (const chunk of frontier.flatMap(step)) {
        if (!chunk.symbol || seen.has(chunk.symbol) || next.length >= MAX_NODES_PER_HOP) continue;
        seen.add(chunk.symbol);
        next.push(chunk.symbol);
        nodes.push(asNode(chunk, distance));
      }
      frontier = next;
    }
    return nodes;
  }

  private callersOf(name: string): CodeChunk[] {
    return this.index.callSites(name, MAX_NODES_PER_HOP);
  }

  private calleesOf(name: string): CodeChunk[] {
    return this.index
      .definitions(name)
      .flatMap((chunk) => calledNames(chunk).flatMap((called) => this.index.definitions(called)));
  }
}
