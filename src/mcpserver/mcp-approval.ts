import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { Request } from 'express';
import { createHash, randomUUID } from 'node:crypto';
import { ApprovalAnswer, ApprovalInputRequired, ApprovalQuestion, HumanChannel } from '../actionrecall/action-approval';
import {
  answerOf,
  approvalForm,
  approvalMessage,
  canonicalJson,
  questionDigest,
} from '../actionrecall/approval-question';
import { AccountContext, ANONYMOUS } from '../common/auth/account';
import type { AuthenticatedRequest } from '../common/auth/auth.guard';
import { isRecord } from '../common/http/json-inspection';
import { configToken, McpConfig } from '../config';
import { connectionScope } from './connection-scope';
import { ClientRequestBridge, McpHttpHooks, McpRequestHandlers } from './mcp-nest.extension';
import { SignedState } from './signed-state';

/** How long an approval question stays answerable (the human reads it first). */
const QUESTION_TTL_MS = 10 * 60_000;
/** How long the capability-bearing session id of a 2025-era client stays valid. */
const SESSION_TTL_MS = 24 * 60 * 60_000;
/** Approvals already used, remembered until their question expires so one "yes" runs one execution. */
const MAX_REMEMBERED_APPROVALS = 10_000;
/** The key of the approval question in `inputRequests` / `inputResponses`. */
export const APPROVAL_INPUT_KEY = 'approval';
/** The tool whose calls may ask the human (an action needing approval). */
const ASKING_TOOL = 'execute_action';
const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';

/** The part of the SDK's request context a channel needs (2026-07-28 retry fields, the request id). */
export interface McpCallContext {
  mcpReq: {
    id: string | number;
    envelope?: Record<string, unknown>;
    inputResponses?: Record<string, unknown>;
    requestState: <T = unknown>() => T | undefined;
  };
}

/** One tool call, as the channel binds it: who, which tool, which arguments, on which connection. */
export interface McpCall {
  era: 'legacy' | 'modern';
  request?: AuthenticatedRequest;
  principal: AccountContext;
  tool: string;
  arguments: unknown;
  handlers: McpRequestHandlers;
  context?: McpCallContext;
}

/**
 * The human behind an MCP client, for execute_action's approval: a 2026-07-28 client that declares
 * elicitation is asked through an `input_required` result (its retry carries the answer and the signed
 * `requestState`), a 2025-era client that declared elicitation at initialize through `elicitation/create`
 * sent mid-call; any other client keeps the `confirm` argument.
 */
@Injectable()
export class McpApproval implements McpHttpHooks, OnModuleInit {
  private readonly logger = new Logger('McpApproval');
  private readonly state: SignedState;
  private readonly usedApprovals = new Map<string, number>();

  constructor(
    private readonly clientRequests: ClientRequestBridge,
    @Inject(configToken('mcp')) config: McpConfig,
  ) {
    this.state = new SignedState(config.stateSecret);
  }

  onModuleInit(): void {
    this.clientRequests.use(this);
  }

  /** The way to ask this call's human, or undefined when its client offers none (then `confirm` decides). */
  channelFor(call: McpCall): HumanChannel | undefined {
    // execute_action is the one capability that asks; every other call keeps its plain path (and tasks).
    if (call.tool !== ASKING_TOOL) return undefined;
    if (call.era === 'modern')
      return this.declaresModernElicitation(call) ? this.inputRequiredChannel(call) : undefined;
    return this.declaredLegacyElicitation(call.request, call.principal) ? this.elicitationChannel(call) : undefined;
  }

  /** The `input_required` result that asks the question; its signed state binds account, tool and arguments. */
  inputRequired(call: McpCall, pending: ApprovalInputRequired) {
    const question = pending.question;
    const requestState = this.state.sign(
      'approval',
      { b: this.binding(call), q: questionDigest(question), n: randomUUID() },
      QUESTION_TTL_MS,
    );
    return {
      resultType: 'input_required' as const,
      inputRequests: { [APPROVAL_INPUT_KEY]: { method: 'elicitation/create' as const, params: elicitation(question) } },
      requestState,
    };
  }

  responseHeaders(request: Request): Record<string, string> | undefined {
    const body = request.body as Record<string, unknown> | undefined;
    if (!isRecord(body) || body.method !== 'initialize' || !isRecord(body.params)) return undefined;
    const capabilities = body.params.capabilities;
    if (!isRecord(capabilities) || !isRecord(capabilities.elicitation)) return undefined;
    const owner = this.ownerOf(request);
    return { 'mcp-session-id': this.state.sign('session', { o: owner, e: 1 }, SESSION_TTL_MS) };
  }

  streams(request: Request): boolean {
    const body = request.body as Record<string, unknown> | undefined;
    if (!isRecord(body) || body.method !== 'tools/call' || !isRecord(body.params)) return false;
    return body.params.name === ASKING_TOOL && this.declaredLegacyElicitation(request);
  }

  ownerOf(request: Request): string {
    return accountKey((request as AuthenticatedRequest).account ?? ANONYMOUS);
  }

  private declaresModernElicitation(call: McpCall): boolean {
    const capabilities = call.context?.mcpReq.envelope?.[CLIENT_CAPABILITIES_KEY];
    return isRecord(capabilities) && isRecord(capabilities.elicitation);
  }

  /** A 2025-era client's capabilities ride in the session id this server signed at its initialize. */
  private declaredLegacyElicitation(request: Request | undefined, principal?: AccountContext): boolean {
    const sessionId = request?.headers['mcp-session-id'];
    const session = this.state.verify('session', Array.isArray(sessionId) ? sessionId[0] : sessionId);
    if (!session || session.e !== 1 || !request) return false;
    const owner = principal ? accountKey(principal) : this.ownerOf(request);
    return session.o === owner;
  }

  private inputRequiredChannel(call: McpCall): HumanChannel {
    const answered = this.answerCarried(call);
    return {
      kind: 'input_required',
      ask: (question) => {
        if (answered && answered.question === questionDigest(question)) return Promise.resolve(answered.answer);
        return Promise.reject(new ApprovalInputRequired(question));
      },
    };
  }

  /** The answer a retried call carries, when its requestState is ours, for this call, unexpired and unused. */
  private answerCarried(call: McpCall): { question: string; answer: ApprovalAnswer } | undefined {
    const context = call.context?.mcpReq;
    const raw = context?.requestState<unknown>();
    if (raw === undefined) return undefined;
    const state = this.state.verify('approval', raw);
    if (!state || state.b !== this.binding(call) || typeof state.n !== 'string' || typeof state.q !== 'string') {
      this.logger.warn(`refused a requestState that is not this server's for this call (tool ${call.tool})`);
      return undefined;
    }
    if (!this.useOnce(state.n, Number(state.exp))) return undefined;
    return { question: state.q, answer: answerOf(context?.inputResponses?.[APPROVAL_INPUT_KEY]) };
  }

  private elicitationChannel(call: McpCall): HumanChannel {
    const owner = accountKey(call.principal);
    return {
      kind: 'elicitation',
      ask: async (question) => {
        const relatedRequestId = call.context?.mcpReq.id;
        if (relatedRequestId === undefined) return 'declined';
        try {
          const message = { method: 'elicitation/create', params: elicitation(question) };
          return answerOf(
            await this.clientRequests.ask(call.handlers, relatedRequestId, owner, message, QUESTION_TTL_MS),
          );
        } catch (error) {
          this.logger.warn(`approval question for ${question.atId} got no answer: ${(error as Error).message}`);
          return 'declined';
        }
      },
    };
  }

  /** Account, tool, arguments and connection network of a call, as one digest. */
  private binding(call: McpCall): string {
    const parts = [
      call.principal.type,
      call.principal.id,
      call.tool,
      call.arguments ?? {},
      connectionScope(call.request) ?? '',
    ];
    return createHash('sha256').update(canonicalJson(parts)).digest('base64url');
  }

  private useOnce(nonce: string, expires: number): boolean {
    const now = Date.now();
    if (this.usedApprovals.has(nonce)) return false;
    if (this.usedApprovals.size >= MAX_REMEMBERED_APPROVALS) {
      for (const [key, until] of this.usedApprovals) if (until < now) this.usedApprovals.delete(key);
      if (this.usedApprovals.size >= MAX_REMEMBERED_APPROVALS) return false;
    }
    this.usedApprovals.set(nonce, expires);
    return true;
  }
}

/** One account, as the owner of tasks, approvals and signed sessions. */
export function accountKey(account: AccountContext): string {
  return `${account.type}:${account.id}`;
}

function elicitation(question: ApprovalQuestion) {
  return {
    mode: 'form' as const,
    message: approvalMessage(question),
    requestedSchema: approvalForm(question.language),
  };
}
