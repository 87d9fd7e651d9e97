import { Inject, Injectable } from '@nestjs/common';
import { Capability, CapabilityCatalog } from '../../capabilities/capability-catalog';
import { CallScope, CapabilityGateway } from '../../capabilities/capability-gateway';
import { renderFailure, renderResult } from '../../capabilities/capability-text';
import { ErrorPresenter } from '../../common/errors/error-presenter';
import { isRecord } from '../../common/http/json-inspection';
import { ChatConfig, configToken } from '../../config';
import type { Language } from '../../config/i18n.config';
import { FunctionTool } from '../chat.types';
import { FIND_TOOLS, FIND_TOOLS_DEFINITION, findToolsTool } from './find-tools';
import { OperatorTools } from './operator-tools';
import { ToolDefinitions } from './tool-definitions';
import { chooseOffered, OfferCandidate, OfferHints } from './tool-offer';
import { ToolSet } from './tool-set';

export { ToolSet } from './tool-set';

/** What a tool call gave back, as the model will read it. */
export interface ToolOutcome {
  success: boolean;
  content: string;
}

/** `meta`: find_tools, which changes what the request's model is offered and reads nothing else. */
export type ToolKind = 'server' | 'operator' | 'workspace' | 'client' | 'meta';

/** A tool as one chat request sees it: its name for the model, who runs it and whether it runs unasked. */
export interface ChatTool {
  name: string;
  definition: FunctionTool;
  kind: ToolKind;
  /**
   * `client`: the client runs it; `confirm`: returned to the client like a client tool; `auto`: run here;
   * `denied`: a capability the policy refuses this caller — never offered, and a call to it is refused
   * (and audited) like any other door refuses it.
   */
  mode: 'auto' | 'confirm' | 'client' | 'denied';
  readOnly: boolean;
  /** The capability behind a server-side tool (this service's, a workspace's or an operator's). */
  capability?: Capability;
  /** Runs the call (arguments as parsed, or the text that did not parse); server-side tools only. */
  run?(args: unknown): Promise<ToolOutcome>;
  /** Records that the call was handed to the client (to confirm, or refused: it was not offered). */
  handOver?(args: unknown): void;
}

export interface ToolScope {
  /** How every server-side call of the request is made (door, principal, connection, session). */
  call: CallScope;
  /** The language of the descriptions the model reads. */
  language: Language;
  clientTools: FunctionTool[];
  /** Chat only: what the request is about, to offer the relevant tools within the definitions budget. */
  offer?: OfferHints;
}

/**
 * The tools one chat request (or one tool API call) may use: the capabilities the chat door offers —
 * this service's own and the session's workspace files — plus the operator tools the access policy names,
 * each marked auto or confirm by the policy; then the client's tools, which win a name they share. Every
 * server-side call goes through the capability gateway. A chat request is offered find_tools and the server
 * tools most relevant to it within CHAT_TOOL_DEFINITIONS_BUDGET_BYTES; the tool API has them all.
 */
@Injectable()
export class ToolRegistry {
  private readonly definitions = new ToolDefinitions();
  private readonly findToolsBytes = Buffer.byteLength(JSON.stringify(FIND_TOOLS_DEFINITION));

  constructor(
    private readonly catalog: CapabilityCatalog,
    private readonly gateway: CapabilityGateway,
    private readonly operatorTools: OperatorTools,
    private readonly presenter: ErrorPresenter,
    @Inject(configToken('chat')) private readonly config: ChatConfig,
  ) {}

  async forRequest(scope: ToolScope): Promise<ToolSet> {
    const budgeted = scope.offer !== undefined && this.config.loop.definitionsBudgetBytes > 0;
    const tools = new Map<string, ChatTool>();
    const candidates = new Map<string, OfferCandidate>();
    let set = ToolSet.EMPTY;
    // First, so the model reads it first; a client tool of the same name replaces it.
    if (budgeted)
      tools.set(
        FIND_TOOLS,
        findToolsTool(() => set),
      );
    const offer = (capability: Capability, kind: ToolKind): void => {
      const decision = this.gateway.decide(capability, scope.call.principal);
      const mode = decision.allowed ? decision.mode : 'denied';
      const built = this.definitions.of(capability.definition, scope.language);
      tools.set(capability.name, this.tool(capability, kind, mode, scope, built.definition));
      candidates.delete(capability.name);
      if (mode === 'denied') return;
      const networkScoped = capability.definition.network === 'required';
      candidates.set(capability.name, { name: capability.name, ...built, networkScoped });
    };
    for (const capability of this.catalog.list(scope.call.door)) {
      offer(capability, capability.definition.governance === 'workspace' ? 'workspace' : 'server');
    }
    for (const capability of await this.operatorTools.list()) offer(capability, 'operator');
    for (const definition of scope.clientTools) {
      const name = definition.function.name;
      tools.set(name, { name, definition, kind: 'client', mode: 'client', readOnly: false });
      candidates.delete(name);
    }
    if (!budgeted) return new ToolSet(tools);
    set = new ToolSet(tools, { candidates, offered: this.chooseOffered(candidates, scope.offer!) });
    return set;
  }

  /** find_tools and the tool_choice tool, then the most relevant server tools within the budget. */
  private chooseOffered(candidates: ReadonlyMap<string, OfferCandidate>, hints: OfferHints): Set<string> {
    const findTools = {
      name: FIND_TOOLS,
      bytes: this.findToolsBytes,
      nameTerms: new Set<string>(),
      terms: new Set<string>(),
    };
    const pinned = new Set([FIND_TOOLS, ...(hints.toolChoice ? [hints.toolChoice] : [])]);
    const all = [{ ...findTools, networkScoped: false }, ...candidates.values()];
    return chooseOffered(all, hints, pinned, this.config.loop.definitionsBudgetBytes);
  }

  private tool(
    capability: Capability,
    kind: ToolKind,
    mode: ChatTool['mode'],
    scope: ToolScope,
    definition: FunctionTool,
  ): ChatTool {
    return {
      name: capability.name,
      definition,
      kind,
      mode,
      readOnly: capability.subject.readOnly && !capability.subject.operator,
      capability,
      run: (args) => this.run(capability, args, scope.call),
      handOver: (args) =>
        void this.gateway.call(capability, args, { ...scope.call, confirmOnly: true }).catch(() => undefined),
    };
  }

  private async run(capability: Capability, args: unknown, scope: CallScope): Promise<ToolOutcome> {
    const call: CallScope = { ...scope };
    try {
      const { value } = await this.gateway.call(capability, args, call);
      const format = isRecord(args) ? args.response_format : undefined;
      const failed = isRecord(value) && (value.isError === true || value.outcome === 'tool_error');
      return { success: !failed, content: renderResult(capability.definition, value, format).blocks.join('\n') };
    } catch (error) {
      const { body } = this.presenter.present(error, scope.language, scope.requestId);
      return { success: false, content: renderFailure(capability.definition, error, body) };
    }
  }
}
