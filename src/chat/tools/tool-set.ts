import type { FunctionTool } from '../chat.types';
import type { ChatTool } from './tool-registry';
import { OfferCandidate, relevance } from './tool-offer';

/** Which server tools a chat request's model is offered, and what it could be offered besides. */
export interface ToolOffer {
  /** The server tools the caller may use (denied and client tools are never here). */
  candidates: ReadonlyMap<string, OfferCandidate>;
  /** The names offered; grows as find_tools, or a call to a tool not offered, reveals more. */
  offered: Set<string>;
}

/** A server tool find_tools found. */
export interface FoundTool {
  tool: ChatTool;
  offered: boolean;
}

/**
 * The tools of one request, by the name the model calls them. Without an offer every tool but the denied
 * ones is offered (the tool API); with one, only the offered ones. A call to an allowed tool that is not
 * offered (a prompt named it) is served all the same — the offer saves bytes, the policy decides — and
 * its definition is offered from then on, so a retry after a validation error has it.
 */
export class ToolSet {
  static readonly EMPTY = new ToolSet(new Map());

  constructor(
    private readonly tools: ReadonlyMap<string, ChatTool>,
    private readonly offer?: ToolOffer,
  ) {}

  get(name: string): ChatTool | undefined {
    const tool = this.tools.get(name);
    if (!tool || tool.mode === 'denied' || this.isOffered(tool)) return tool;
    return this.notOffered(tool);
  }

  /** What the model is offered in the next call. */
  definitions(): FunctionTool[] {
    return [...this.tools.values()].filter((tool) => this.isOffered(tool)).map((tool) => tool.definition);
  }

  /** Every tool the caller may use, offered or not (`GET /v1/tools`). */
  all(): FunctionTool[] {
    return [...this.tools.values()].filter((tool) => tool.mode !== 'denied').map((tool) => tool.definition);
  }

  /** How many tools the model is offered. */
  get size(): number {
    let offered = 0;
    for (const tool of this.tools.values()) if (this.isOffered(tool)) offered += 1;
    return offered;
  }

  /** Offers these server tools from the next model call on. */
  reveal(names: Iterable<string>): void {
    if (!this.offer) return;
    for (const name of names) if (this.offer.candidates.has(name)) this.offer.offered.add(name);
  }

  /** The server tools that match the words best (at least one word), most relevant first. */
  search(terms: ReadonlySet<string>, limit: number): FoundTool[] {
    if (!this.offer) return [];
    const scored = [...this.offer.candidates.values()]
      .map((candidate) => ({ candidate, score: relevance(candidate, terms) }))
      .filter(({ score }) => score > 0)
      .sort((a, b) => b.score - a.score);
    return scored.slice(0, limit).flatMap(({ candidate }) => {
      const tool = this.tools.get(candidate.name);
      return tool ? [{ tool, offered: this.isOffered(tool) }] : [];
    });
  }

  /** The server tools not offered yet, in catalog order. */
  unoffered(): string[] {
    if (!this.offer) return [];
    const offered = this.offer.offered;
    return [...this.offer.candidates.keys()].filter((name) => !offered.has(name));
  }

  private isOffered(tool: ChatTool): boolean {
    if (tool.mode === 'denied') return false;
    return !this.offer || tool.kind === 'client' || this.offer.offered.has(tool.name);
  }

  /** The tool as if offered (the policy, not the offer, decides what runs), its definition offered from now on. */
  private notOffered(tool: ChatTool): ChatTool {
    const revealed = <T extends unknown[], R>(action: ((...args: T) => R) | undefined) =>
      action &&
      ((...args: T): R => {
        this.reveal([tool.name]);
        return action(...args);
      });
    return { ...tool, run: revealed(tool.run), handOver: revealed(tool.handOver) };
  }
}
