import { Inject, Injectable } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import type { AccountContext } from '../common/auth/account';
import { AppException } from '../common/errors/app.exception';
import { ValidationErrors } from '../common/errors/error-codes';
import { inspectJson, isRecord, jsonProblemException, JsonProblem } from '../common/http/json-inspection';
import { resolveKnId } from '../common/http/kn-id';
import { parseResponseFormat } from '../common/response-format/response-format';
import { configToken, LimitsConfig } from '../config';
import type { Language } from '../config/i18n.config';
import { AccessPolicyService } from '../governance/access-policy.service';
import type { PolicyDecision } from '../governance/access-policy';
import { AuditEntry, AuditLog } from '../governance/audit-log';
import { GovernanceErrors } from '../governance/governance.errors';
import { networkNotFound } from '../knowledge-network/knowledge-network.errors';
import { CapabilityContext, CapabilityDefinition, CapabilitySession, Door } from './capability';
import type { Capability } from './capability-catalog';
import { parseInput } from './capability-input';

/** Answers of read-only capabilities kept for reuse (chat's TOOL_CACHE_TTL_S), keyed by call. */
export interface ResultMemo {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
}

/** Who calls, through which door, with which connection. */
export interface CallScope {
  door: Door;
  principal: AccountContext;
  headers: IncomingHttpHeaders;
  /** REST: the query string, where kn_id may also come from. */
  query?: unknown;
  language: Language;
  requestId?: string;
  signal?: AbortSignal;
  session?: CapabilitySession;
  /** What the endpoint's body check already found wrong in the arguments (MCP); else they are inspected here. */
  argumentProblems?: readonly JsonProblem[];
  /** Chat: the call was handed to the client to confirm instead of running (audited, not run). */
  confirmOnly?: boolean;
  /** Set by the gateway once the call's kn_id is known, so a failure can still name its network. */
  resolvedKnId?: string;
  /**
   * MCP: whether the capability is offered for the call's network (the rule tools/list applies), so
   * listing and calling cannot disagree; a refusal (404 ToolNotOffered) names what is missing.
   */
  offered?: (definition: CapabilityDefinition, knId: string) => Promise<string | undefined>;
  /** Reuse answers of read-only capabilities (after the policy and validation, so every use is checked and audited). */
  memo?: ResultMemo;
  /** MCP: the human behind the client, when its client offers a channel (see CapabilityContext.human). */
  human?: CapabilityContext['human'];
  /** MCP tasks: where a long job reports its progress. */
  progress?: CapabilityContext['progress'];
}

export interface CallOutcome {
  value: unknown;
  knId: string;
}

/**
 * The one way a capability runs, whatever the door (SPEC §12): the access policy (a denied capability is
 * 403 ToolDenied naming the rule), the kn_id (argument over query over X-Kn-ID) and whether the caller may
 * see that network (404 as if it did not exist), the input bounds and schema (the documented 400s), the
 * run, and one audit line. Doors only translate their protocol to a call and the outcome back.
 */
@Injectable()
export class CapabilityGateway {
  constructor(
    private readonly policy: AccessPolicyService,
    private readonly audit: AuditLog,
    @Inject(configToken('limits')) private readonly limits: LimitsConfig,
  ) {}

  /** What the policy says about a capability for a principal (doors use it to list and to mark confirm tools). */
  decide(capability: Capability, principal: AccountContext): PolicyDecision {
    return this.policy.policy.decide(principal.type, capability.subject);
  }

  /** Whether the principal may see a network (lists leave the others out). */
  seesNetwork(principal: AccountContext, knId: string): boolean {
    return this.policy.policy.seesNetwork(principal.type, knId);
  }

  /** Runs one call of a capability; throws the AppException the door presents in its own shape. */
  async call(capability: Capability, rawInput: unknown, scope: CallScope): Promise<CallOutcome> {
    const started = process.hrtime.bigint();
    const decision = this.decide(capability, scope.principal);
    const audit: Pick<AuditEntry, 'decision' | 'outcome' | 'errorCode' | 'knId'> = {
      decision: decision.allowed ? (scope.confirmOnly ? 'confirm' : 'allowed') : 'denied',
      outcome: 'failed',
    };
    try {
      if (!decision.allowed) throw this.denied(capability, scope.principal, decision.rule);
      const input = this.checked(rawInput, scope, capability.definition);
      audit.knId = this.network(capability.definition, input, scope);
      if (scope.confirmOnly) {
        audit.outcome = 'not_run';
        return { value: undefined, knId: audit.knId };
      }
      const value = await this.run(capability, input, audit.knId, scope);
      audit.outcome = toolFailed(value) ? 'tool_error' : 'ok';
      return { value, knId: audit.knId };
    } catch (error) {
      if (error instanceof AppException) {
        audit.errorCode = error.definition.code;
        audit.outcome = audit.decision === 'denied' ? 'not_run' : error.status >= 500 ? 'failed' : 'rejected';
      }
      throw error;
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const { principal, door, requestId, resolvedKnId } = scope;
      this.audit.record({
        ...audit,
        knId: audit.knId ?? resolvedKnId,
        principal,
        door,
        capability: capability.name,
        seconds,
        requestId,
        arguments: rawInput,
      });
    }
  }

  private denied(capability: Capability, principal: AccountContext, rule: string): AppException {
    const details = `${capability.name} is not allowed for account type "${principal.type}" (rule ${rule})`;
    return new AppException(GovernanceErrors.ToolDenied, details);
  }

  /** The call's kn_id (argument over query over X-Kn-ID), when the capability needs one the caller may see. */
  private network(definition: CapabilityDefinition, input: Record<string, unknown>, scope: CallScope): string {
    if (definition.network !== 'required') return '';
    const knId = resolveKnId({ body: input, query: scope.query, headers: scope.headers });
    scope.resolvedKnId = knId;
    if (!this.seesNetwork(scope.principal, knId)) throw new AppException(...networkNotFound(knId));
    return knId;
  }

  /** Validates the input and runs the capability, or reuses an answer the memo holds for the same call. */
  private async run(capability: Capability, input: Record<string, unknown>, knId: string, scope: CallScope) {
    const { definition, subject } = capability;
    this.checkResponseFormat(definition, input);
    const parsed = parseInput(definition.input, input);
    // After the arguments are known good (their 400s come first), as tools/list decides.
    const missing = await scope.offered?.(definition, knId);
    if (missing) throw new AppException(GovernanceErrors.ToolNotOffered, `${capability.name}: ${missing}`);
    // Reused: this service's read-only answers; never a workspace file, which the session itself rewrites.
    const reusable = scope.memo && subject.readOnly && !subject.operator && definition.governance === 'read';
    const memoKey = reusable ? JSON.stringify([capability.name, knId, parsed]) : undefined;
    const reused = memoKey === undefined ? undefined : scope.memo!.get(memoKey);
    if (reused !== undefined) return reused;
    const value = await capability.run(parsed, {
      door: scope.door,
      principal: scope.principal,
      knId,
      headers: scope.headers,
      language: scope.language,
      requestId: scope.requestId,
      signal: scope.signal,
      session: scope.session,
      human: scope.human,
      progress: scope.progress,
      seesNetwork: (id) => this.seesNetwork(scope.principal, id),
    });
    if (memoKey !== undefined && !toolFailed(value)) scope.memo!.set(memoKey, value);
    return value;
  }

  /**
   * `response_format` answers exactly as REST's query parameter does (400 InvalidResponseFormat); a
   * capability that always answers JSON ignores it, whatever it holds.
   */
  private checkResponseFormat(definition: CapabilityDefinition, input: Record<string, unknown>): void {
    // An operator tool's arguments are its own: response_format may be one of them.
    if (!('response_format' in input) || definition.readInput) return;
    if (definition.text === 'toon' && parseResponseFormat(input.response_format) === 'json') {
      input.response_format = 'json';
    } else if (definition.text !== 'toon') {
      delete input.response_format;
    }
  }

  /**
   * A copy of the arguments once their depth, array lengths and Unicode passed the bounds (SPEC §4): the
   * endpoint's body check may have done it already; arguments from elsewhere (chat) are inspected here.
   */
  private checked(rawInput: unknown, scope: CallScope, definition: CapabilityDefinition): Record<string, unknown> {
    const problem = scope.argumentProblems ? scope.argumentProblems[0] : inspectJson(rawInput, this.limits.json);
    if (problem) throw jsonProblemException(problem, this.limits.json);
    // A copy: the caller's body is never changed (the audit line sizes it as it came).
    if (definition.readInput) return { ...definition.readInput(rawInput) };
    if (rawInput === undefined) return {};
    if (typeof rawInput === 'string')
      throw new AppException(ValidationErrors.InvalidJson, 'arguments are not valid JSON');
    if (!isRecord(rawInput)) throw new AppException(ValidationErrors.Type, 'arguments must be a JSON object');
    // A null argument counts as absent: models send null for optional arguments they mean to leave out.
    const input: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(rawInput)) if (value !== null) input[key] = value;
    // The service's one name for a concept, under whichever name the caller used (docs/mcp.md, "One name").
    for (const [alias, name] of Object.entries(definition.aliases ?? {})) {
      if (!(alias in input)) continue;
      if (!(name in input)) input[name] = input[alias];
      delete input[alias];
    }
    return input;
  }
}

/** A result that ran but whose tool reported a failure (an action's tool, an operator tool). */
function toolFailed(value: unknown): boolean {
  if (!isRecord(value)) return false;
  return value.isError === true || value.outcome === 'tool_error';
}
