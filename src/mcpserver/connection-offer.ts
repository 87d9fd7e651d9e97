import { Inject, Injectable, Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { IncomingHttpHeaders } from 'node:http';
import type { CapabilityDefinition } from '../capabilities/capability';
import { CodeIndexPort } from '../code-intelligence/code-index/code-index.port';
import { CkbConfig, configToken, KbConfig } from '../config';
import { kbConnection, KB_IDS_HEADER } from '../kbsearch/kb-connection';
import { headerText } from '../common/http/header-text';
import { KbSearchService } from '../kbsearch/kbsearch.service';
import { KnowledgeNetworkPort } from '../knowledge-network/knowledge-network.port';

/** How long a fact (a network's action types, the code index, the knowledge bases) is reused. */
const FACT_TTL_MS = 30_000;
/** Facts remembered at most (one per network for action types, plus two). */
const MAX_FACTS = 1000;

/**
 * Which capabilities one MCP connection is offered (docs/mcp.md, "A small catalogue"): the one rule both
 * tools/list and tools/call apply, so a listed tool can be called and an unlisted one is refused. A
 * capability's `needs` names what must exist; the answer is what is missing, or undefined when nothing is.
 */
@Injectable()
export class ConnectionOffer {
  private readonly facts = new Map<string, { value: boolean; expires: number }>();

  constructor(
    private readonly networks: KnowledgeNetworkPort,
    private readonly moduleRef: ModuleRef,
    @Inject(configToken('kb')) private readonly kb: KbConfig,
    @Inject(configToken('ckb')) private readonly ckb: CkbConfig,
  ) {}

  /**
   * What the capability lacks on a connection (or call) about `knId` (`''`/undefined: no network), with
   * the connection's headers (a connection bound to a network reaches documents only through named ones).
   */
  async missing(
    definition: CapabilityDefinition,
    knId: string | undefined,
    headers: IncomingHttpHeaders = {},
  ): Promise<string | undefined> {
    switch (definition.needs) {
      case 'network':
        return knId ? undefined : 'no knowledge network (send X-Kn-ID or pass kn_id)';
      case 'no-network':
        return knId ? `the connection already works on network "${knId}"` : undefined;
      case 'actions':
        if (!knId) return 'no knowledge network (send X-Kn-ID or pass kn_id)';
        return (await this.fact(`actions\u0000${knId}`, () => this.hasActions(knId)))
          ? undefined
          : `knowledge network "${knId}" has no action types`;
      case 'code-index':
        return (await this.fact('code', () => this.hasCodeIndex())) ? undefined : 'no code index (CODE_ROOT or CKB)';
      case 'knowledge-base':
        if (!(await this.fact('kb', () => this.hasKnowledgeBase()))) return 'no knowledge base';
        // On a network's connection, documents matter when someone named them (the connection or the server).
        if (knId && !this.namesKnowledgeBases(headers)) {
          return `no knowledge base named for network "${knId}" (X-WeKnora-KB-IDs or WEKNORA_KB_IDS)`;
        }
        return undefined;
      default:
        return undefined;
    }
  }

  private namesKnowledgeBases(headers: IncomingHttpHeaders): boolean {
    return this.kb.weknora.kbIds.length > 0 || Boolean(headerText(headers[KB_IDS_HEADER]));
  }

  private async fact(key: string, find: () => Promise<boolean>): Promise<boolean> {
    const now = Date.now();
    const known = this.facts.get(key);
    if (known && known.expires > now) return known.value;
    // A backend that cannot answer now offers the tool: the call itself is still governed and answers why.
    const value = await find().catch(() => true);
    if (this.facts.size >= MAX_FACTS) this.facts.clear();
    this.facts.set(key, { value, expires: now + FACT_TTL_MS });
    return value;
  }

  private async hasActions(knId: string): Promise<boolean> {
    const summary = (await this.networks.listNetworks()).find((network) => network.id === knId);
    // An unknown network is answered by the call (404 as if absent), not by the offer.
    return summary === undefined || summary.action_type_count > 0;
  }

  private hasCodeIndex(): Promise<boolean> {
    if (this.ckb.enabled) return Promise.resolve(true);
    const index = this.optional(CodeIndexPort);
    return Promise.resolve(index !== undefined && index.status().files > 0);
  }

  private async hasKnowledgeBase(): Promise<boolean> {
    if (this.kb.backend === 'weknora') return this.kb.weknora.baseUrl !== undefined;
    const service = this.optional(KbSearchService);
    if (!service) return false;
    return (await service.listKnowledgeBases(kbConnection({}, this.kb))).knowledge_bases.length > 0;
  }

  private optional<T>(token: Type<T> | (abstract new (...args: never[]) => T)): T | undefined {
    try {
      return this.moduleRef.get(token, { strict: false });
    } catch {
      return undefined;
    }
  }
}
