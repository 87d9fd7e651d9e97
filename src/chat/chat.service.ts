import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { requestScope } from '../capabilities/call-scope';
import { CallScope, CapabilityGateway, ResultMemo } from '../capabilities/capability-gateway';
import { renderResult } from '../capabilities/capability-text';
import type { AuthenticatedRequest } from '../common/auth/auth.guard';
import { AppException } from '../common/errors/app.exception';
import { ANONYMOUS } from '../common/auth/account';
import { AccountThrottlerGuard } from '../common/http/account-throttler.guard';
import { ErrorPresenter } from '../common/errors/error-presenter';
import { LocalizedDetails } from '../common/errors/localized-details';
import { isRecord } from '../common/http/json-inspection';
import { languageFromHeaders } from '../common/i18n/language';
import { configToken, ChatConfig, I18nConfig } from '../config';
import { CallMetrics, MetricsService } from '../metrics/metrics.service';
import { ChatLoop, LoopEvent, LoopResult } from './chat-loop';
import { ChatRequest, ChatRequestParser } from './chat-request';
import { ChatErrors, invalidChatRequest } from './chat.errors';
import { FunctionTool, LlmPort } from './chat.types';
import { ToolExecutor } from './tool-executor';
import { TurnSlots } from './turn-slots';
import { ToolRegistry, ToolScope, ToolSet } from './tools/tool-registry';
import { WorkspaceErrors } from './workspace/workspace.errors';
import { Workspaces, WorkspaceSession } from './workspace/workspaces';

const WORKSPACE_REFUSALS: ReadonlySet<string> = new Set(Object.values(WorkspaceErrors).map((error) => error.code));

/** The seed's `tool_execution` block (plus `rounds` and `truncated`). */
export interface ToolExecution {
  executed: boolean;
  tools_called: string[];
  session_id: string;
  workspace_path: string;
  rounds: number;
  truncated: boolean;
  /** Why the turn was cut short (a bound it reached); absent when it was not. */
  notice?: string;
}

/** How one turn talks to its client: cancellation, the events it streams, and backpressure. */
export interface TurnIo {
  signal: AbortSignal;
  emit?(event: LoopEvent): void;
  /** Resolves when the client can take more (undefined: it can now). */
  ready?(): Promise<void> | undefined;
}

export interface ChatTurn {
  result: LoopResult;
  execution: ToolExecution;
}

/**
 * Chat completions with server-side tools (seed 004, SPEC §10): validates the request, opens the
 * session's workspace, merges the tools the caller may use, and runs the bounded tool loop.
 */
@Injectable()
export class ChatService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Chat');
  private readonly loop: ChatLoop;
  private readonly executor: ToolExecutor;
  private readonly requests: CallMetrics;
  private readonly slots: TurnSlots;
  private readonly parser: ChatRequestParser;
  /** Answers of read-only tools reused within TOOL_CACHE_TTL_S, per account and session. */
  private readonly reusable?: LRUCache<string, object>;
  readonly rounds;
  readonly firstByte;

  constructor(
    private readonly llm: LlmPort,
    private readonly registry: ToolRegistry,
    private readonly workspaces: Workspaces,
    @Inject(configToken('chat')) private readonly config: ChatConfig,
    @Inject(configToken('i18n')) private readonly i18n: I18nConfig,
    private readonly gateway: CapabilityGateway,
    private readonly presenter: ErrorPresenter,
    private readonly throttler: AccountThrottlerGuard,
    metrics: MetricsService,
  ) {
    this.slots = new TurnSlots(config.bounds.streamsPerAccount);
    if (config.loop.toolCacheTtlSeconds > 0) {
      this.reusable = new LRUCache<string, object>({
        max: 2000,
        ttl: config.loop.toolCacheTtlSeconds * 1000,
        maxSize: 32 * 1024 * 1024,
        sizeCalculation: (value) => Math.max(1, JSON.stringify(value).length),
      });
    }
    this.executor = new ToolExecutor(
      { timeoutMs: config.loop.toolTimeoutMs },
      metrics.calls({
        total: 'chat_tool_calls_total',
        duration: 'chat_tool_duration_seconds',
        what: 'Chat tool calls',
        labels: ['tool', 'outcome'],
      }),
    );
    this.loop = new ChatLoop(llm, this.executor);
    this.parser = new ChatRequestParser(config.loop);
    this.requests = metrics.calls({
      total: 'chat_requests_total',
      duration: 'chat_request_duration_seconds',
      what: 'Chat completion requests',
      labels: ['tools', 'stream', 'outcome'],
    });
    this.rounds = metrics.histogram('chat_tool_rounds', 'Tool rounds per chat turn', [], [0, 1, 2, 3, 4, 6, 8, 16, 32]);
    this.firstByte = metrics.histogram(
      'chat_time_to_first_byte_seconds',
      'Time from a streamed chat request to its first content frame',
      [],
      [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    );
  }

  /** CHAT_CLIENT_IDLE_MS: how long a streaming client may read nothing while frames wait. */
  get clientIdleMs(): number {
    return this.config.bounds.clientIdleMs;
  }

  onModuleInit(): void {
    this.workspaces.start();
  }

  onModuleDestroy(): void {
    this.workspaces.stop();
  }

  /** Parses the body (400s in the OpenAI shape) before anything is opened or called. */
  parse(body: unknown): ChatRequest {
    return this.parser.parse(body);
  }

  /** Runs one turn of a request {@link parse} accepted. */
  async complete(parsed: ChatRequest, request: AuthenticatedRequest, io: TurnIo): Promise<ChatTurn> {
    const started = process.hrtime.bigint();
    let outcome = 'error';
    const accountId = (request.account ?? ANONYMOUS).id;
    const release = this.slots.take(accountId);
    const { signal } = io;
    try {
      if (!this.llm.configured) await this.llm.defaultModel(signal);
      const scope = this.toolScope('chat', request, parsed.session_id, parsed.kn_id, parsed.tools);
      // The workspace opens when a workspace tool first runs: sessions are per account, so there is no owner to check first.
      const toolChoice = typeof parsed.tool_choice === 'object' ? parsed.tool_choice.function.name : undefined;
      scope.tools.offer = { knId: parsed.kn_id, messages: parsed.messages, toolChoice };
      const workspace = scope.session;
      // tool_choice "none" offers no tool, so nothing is listed (no MCP server is asked for its tools).
      const tools = parsed.tool_choice === 'none' ? ToolSet.EMPTY : await this.registry.forRequest(scope.tools);
      const chosen = typeof parsed.tool_choice === 'object' ? tools.get(parsed.tool_choice.function.name) : undefined;
      if (typeof parsed.tool_choice === 'object' && (!chosen || chosen.mode === 'denied')) {
        throw invalidChatRequest('toolChoiceUnavailable', {
          param: 'tool_choice',
          name: parsed.tool_choice.function.name,
        });
      }
      const model = parsed.model ?? (await this.llm.defaultModel(signal));
      const result = await this.loop.run({
        model,
        messages: parsed.messages,
        tools,
        toolChoice: parsed.tool_choice,
        temperature: parsed.temperature,
        maxTokens: parsed.max_tokens,
        forwarded: parsed.forwarded,
        passthrough: parsed.passthrough,
        maxRounds: parsed.max_tool_rounds ?? this.config.loop.maxRounds,
        concurrency: this.config.loop.toolConcurrency,
        bounds: this.config.bounds,
        stream: parsed.stream,
        signal,
        emit: io.emit ?? (() => undefined),
        ready: io.ready,
        charge: () => this.throttler.chargeAccount(accountId),
      });
      this.rounds.observe(result.rounds);
      outcome = 'ok';
      return { result, execution: execution(result, workspace, this.config.workspace.root) };
    } finally {
      release();
      const labels = { tools: parsed.tools.length > 0 ? 'client' : 'server', stream: String(parsed.stream), outcome };
      this.requests.record(labels, Number(process.hrtime.bigint() - started) / 1e9);
    }
  }

  /** The server tools this caller may use (`GET /v1/tools`), as OpenAI function definitions. */
  async serverTools(request: AuthenticatedRequest, sessionId?: string): Promise<FunctionTool[]> {
    const { tools } = this.toolScope('tool-api', request, sessionId, undefined, []);
    return (await this.registry.forRequest(tools)).all();
  }

  /**
   * The seed's server-side tool execution API (manual mode): runs one server tool for the caller —
   * confirm tools included, since the caller is the one confirming — in the session's workspace. A
   * refusal keeps its own status and code (403 denied, 404 network, 400 input, 409 approval); a tool
   * that ran and failed is 422 `tool_failed`.
   */
  async callTool(
    name: string,
    body: unknown,
    request: AuthenticatedRequest,
  ): Promise<{ tool: string; session_id: string; content: string }> {
    const input = isRecord(body) ? body : {};
    const args = input.arguments ?? {};
    if (!isRecord(args)) throw invalidChatRequest('notObject', { param: 'arguments' });
    const sessionId = input.session_id;
    if (sessionId !== undefined && sessionId !== null && typeof sessionId !== 'string') {
      throw invalidChatRequest('notString', { param: 'session_id' });
    }
    const knId = typeof input.kn_id === 'string' ? input.kn_id : undefined;
    const scope = this.toolScope('tool-api', request, sessionId ?? undefined, knId, []);
    // A denied tool is found here and refused by the gateway (403 ToolDenied), as at every door.
    const tool = (await this.registry.forRequest(scope.tools)).get(name);
    if (!tool?.capability) {
      throw new AppException(ChatErrors.ToolNotFound, new LocalizedDetails('chat.tool.notFound', { name }));
    }
    const signal = AbortSignal.timeout(this.config.loop.toolTimeoutMs + 1000);
    let value: unknown;
    try {
      ({ value } = await this.gateway.call(tool.capability, args, { ...scope.tools.call, signal }));
    } catch (error) {
      // A workspace refusal is the tool failing (seed 004: 422 tool_failed); the code it carries stays visible.
      if (error instanceof AppException && WORKSPACE_REFUSALS.has(error.definition.code)) {
        throw this.toolFailed(
          name,
          this.presenter.detailsText(error, scope.tools.call.language),
          error.definition.code,
        );
      }
      throw error;
    }
    const content = renderResult(tool.capability.definition, value, args.response_format).blocks.join('\n');
    if (isRecord(value) && (value.isError === true || value.outcome === 'tool_error')) {
      throw this.toolFailed(name, content);
    }
    this.logger.debug(`manual tool call ${name} in ${scope.session.sessionId}`);
    return { tool: name, session_id: scope.session.sessionId, content };
  }

  private toolFailed(name: string, reason: string, code?: string): AppException {
    const args = { tool_name: name, reason, ...(code ? { detail_code: code } : {}) };
    return new AppException(ChatErrors.ToolFailed, new LocalizedDetails('chat.tool.failed', args));
  }

  /**
   * How one request's tools are called: its door, principal and connection (the body's kn_id standing in
   * for X-Kn-ID), the session's workspace, and the reuse of read-only answers within the session.
   */
  private toolScope(
    door: 'chat' | 'tool-api',
    request: AuthenticatedRequest,
    sessionId: string | undefined,
    knId: string | undefined,
    clientTools: FunctionTool[],
  ): { tools: ToolScope; session: WorkspaceSession } {
    const base = requestScope(door, request, this.i18n.defaultLanguage);
    const session = this.workspaces.session(sessionId, base.principal.id);
    const call: CallScope = {
      ...base,
      headers: knId ? { ...request.headers, 'x-kn-id': knId } : request.headers,
      session: { id: session.sessionId, workspace: () => session.workspace() },
      memo: this.memoFor(base.principal.id, session.sessionId),
    };
    const language = languageFromHeaders(request.headers, 'en-US');
    return { tools: { call, language, clientTools }, session };
  }

  private memoFor(accountId: string, sessionId: string): ResultMemo | undefined {
    const cache = this.reusable;
    if (!cache) return undefined;
    const prefix = JSON.stringify([accountId, sessionId]);
    return {
      get: (key) => cache.get(prefix + key),
      set: (key, value) => {
        if (value && typeof value === 'object') cache.set(prefix + key, value);
      },
    };
  }

  async models(): Promise<{
    object: 'list';
    data: { id: string; object: 'model'; created: number; owned_by: string }[];
  }> {
    const ids = await this.llm.models();
    return {
      object: 'list',
      data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'agent-retrieval' })),
    };
  }
}

/** `workspace_path` is named under WORKSPACE_ROOT as configured (`<root>/<account folder>/<session id>`), never as the host's absolute path. */
function execution(result: LoopResult, workspace: WorkspaceSession, root: string): ToolExecution {
  return {
    executed: result.toolsCalled.length > 0,
    tools_called: result.toolsCalled,
    session_id: workspace.sessionId,
    workspace_path: `${root.replace(/\/+$/, '')}/${workspace.folder}`,
    rounds: result.rounds,
    truncated: result.truncated,
    ...(result.notice ? { notice: result.notice } : {}),
  };
}
