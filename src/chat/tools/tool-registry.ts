import { Injectable } from '@nestjs/common';
import { Capability, CapabilityCatalog } from '../../capabilities/capability-catalog';
import { CallScope, CapabilityGateway } from '../../capabilities/capability-gateway';
import { advertisedInput } from '../../capabilities/capability-input';
import { renderFailure, renderResult } from '../../capabilities/capability-text';
import { ErrorPresenter } from '../../common/errors/error-presenter';
import { isRecord } from '../../common/http/json-inspection';
import type { Language } from '../../config/i18n.config';
import { AccessPolicyService } from '../../governance/access-policy.service';
import { FunctionTool } from '../chat.types';
import { OperatorTools } from './operator-tools';

/** What a tool call gave back, as the model will read it. */
export interface ToolOutcome {
  success: boolean;
  content: string;
}

export type ToolKind = 'server' | 'operator' | 'workspace' | 'client';

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

/** The tools of one request, by the name the model calls them. */
export class ToolSet {
  static readonly EMPTY = new ToolSet(new Map());

  constructor(private readonly tools: ReadonlyMap<string, ChatTool>) {}

  get(name: string): ChatTool | undefined {
    return this.tools.get(name);
  }

  /** What the model is offered: every tool but the denied ones. */
  definitions(): FunctionTool[] {
    return [...this.tools.values()].filter((tool) => tool.mode !== 'denied').map((tool) => tool.definition);
  }

  /** How many tools the model is offered. */
  get size(): number {
    let offered = 0;
    for (const tool of this.tools.values()) if (tool.mode !== 'denied') offered += 1;
    return offered;
  }
}

export interface ToolScope {
  /** How every server-side call of the request is made (door, principal, connection, session). */
  call: CallScope;
  /** The language of the descriptions the model reads. */
  language: Language;
  clientTools: FunctionTool[];
}

/**
 * The tools one chat request (or one tool API call) may use: the capabilities the chat door offers —
 * this service's own and the session's workspace files — plus the operator tools the access policy names,
 * each marked auto or confirm by the policy; then the client's tools, which win a name they share. Every
 * server-side call goes through the capability gateway.
 */
@Injectable()
export class ToolRegistry {
  private readonly definitions = new Map<string, FunctionTool>();
  private definitionsVersion = -1;

  constructor(
    private readonly catalog: CapabilityCatalog,
    private readonly gateway: CapabilityGateway,
    private readonly policy: AccessPolicyService,
    private readonly operatorTools: OperatorTools,
    private readonly presenter: ErrorPresenter,
  ) {}

  async forRequest(scope: ToolScope): Promise<ToolSet> {
    const tools = new Map<string, ChatTool>();
    const offer = (capability: Capability, kind: ToolKind): void => {
      const decision = this.gateway.decide(capability, scope.call.principal);
      tools.set(capability.name, this.tool(capability, kind, decision.allowed ? decision.mode : 'denied', scope));
    };
    for (const capability of this.catalog.list(scope.call.door)) {
      offer(capability, capability.definition.governance === 'workspace' ? 'workspace' : 'server');
    }
    for (const capability of await this.operatorTools.list()) offer(capability, 'operator');
    for (const definition of scope.clientTools) {
      const name = definition.function.name;
      tools.set(name, { name, definition, kind: 'client', mode: 'client', readOnly: false });
    }
    return new ToolSet(tools);
  }

  private tool(capability: Capability, kind: ToolKind, mode: ChatTool['mode'], scope: ToolScope): ChatTool {
    return {
      name: capability.name,
      definition: this.definition(capability, scope.language),
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

  /** The function definition the model reads, built once per capability, language and policy version. */
  private definition(capability: Capability, language: Language): FunctionTool {
    if (this.definitionsVersion !== this.policy.version) {
      this.definitions.clear();
      this.definitionsVersion = this.policy.version;
    }
    const { definition: entry, subject } = capability;
    // Operator tools come and go with their servers: only this service's own definitions are kept.
    const key = `${entry.name}\u0000${language}`;
    const known = subject.operator ? undefined : this.definitions.get(key);
    if (known) return known;
    const { $schema: _dialect, ...parameters } = advertisedInput(entry);
    const definition: FunctionTool = {
      type: 'function',
      function: { name: entry.name, description: entry.description[language], parameters },
    };
    if (!subject.operator) this.definitions.set(key, definition);
    return definition;
  }
}
