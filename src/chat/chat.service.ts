import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { AuthenticatedRequest } from '../common/auth/auth.guard';
import { ANONYMOUS } from '../common/auth/account';
import { currentRequestContext } from '../common/context/request-context';
import { AppException } from '../common/errors/app.exception';
import { ErrorPresenter } from '../common/errors/error-presenter';
import { LocalizedDetails } from '../common/errors/localized-details';
import { configToken, ChatConfig } from '../config';
import { CallMetrics, MetricsService } from '../metrics/metrics.service';
import { ChatLoop, LoopEvent, LoopResult } from './chat-loop';
import { ChatRequest, parseChatRequest } from './chat-request';
import { ChatErrors, invalidChatRequest } from './chat.errors';
import { FunctionTool, LlmPort } from './chat.types';
import { ToolExecutor } from './tool-executor';
import { ToolRegistry, ToolSet } from './tools/tool-registry';
import { Workspaces, WorkspaceSession } from './workspace/workspaces';

/** The seed's `tool_execution` block (plus `rounds` and `truncated`). */
export interface ToolExecution {
  executed: boolean;
  tools_called: string[];
  session_id: string;
  workspace_path: string;
  rounds: number;
  truncated: boolean;
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
  readonly rounds;
  readonly firstByte;

  constructor(
    private readonly llm: LlmPort,
    private readonly registry: ToolRegistry,
    private readonly workspaces: Workspaces,
    @Inject(configToken('chat')) private readonly config: ChatConfig,
    metrics: MetricsService,
    presenter: ErrorPresenter,
  ) {
    this.executor = new ToolExecutor(
      { timeoutMs: config.loop.toolTimeoutMs, cacheTtlSeconds: config.loop.toolCacheTtlSeconds },
      metrics.calls({
        total: 'chat_tool_calls_total',
        duration: 'chat_tool_duration_seconds',
        what: 'Chat tool calls',
        labels: ['tool', 'outcome'],
      }),
      // A refused tool call tells the model why in the caller's language, as an error body would.
      (error) =>
        error instanceof AppException ? presenter.detailsText(error, currentRequestContext()?.language) : error.message,
    );
    this.loop = new ChatLoop(llm, this.executor);
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

  onModuleInit(): void {
    this.workspaces.start();
  }

  onModuleDestroy(): void {
    this.workspaces.stop();
  }

  /** Parses the body (400s in the OpenAI shape) before anything is opened or called. */
  parse(body: unknown): ChatRequest {
    return parseChatRequest(body, this.config.loop.roundsCap);
  }

  /** Runs one turn of a request {@link parse} accepted. */
  async complete(
    parsed: ChatRequest,
    request: AuthenticatedRequest,
    signal: AbortSignal,
    emit: (event: LoopEvent) => void = () => undefined,
  ): Promise<ChatTurn> {
    const started = process.hrtime.bigint();
    let outcome = 'error';
    try {
      if (!this.llm.configured) await this.llm.defaultModel(signal);
      const account = request.account ?? ANONYMOUS;
      const workspace = this.workspaces.session(parsed.session_id, account.id);
      // A named session is checked now (another account's session is a 403 before the model is called).
      if (parsed.session_id !== undefined) await workspace.workspace();
      // tool_choice "none" offers no tool, so nothing is listed (no MCP server is asked for its tools).
      const tools =
        parsed.tool_choice === 'none'
          ? ToolSet.EMPTY
          : await this.registry.forRequest({
              request: withKnId(request, parsed.kn_id),
              accountType: account.type,
              workspace,
              clientTools: parsed.tools,
            });
      if (typeof parsed.tool_choice === 'object' && !tools.get(parsed.tool_choice.function.name)) {
        const name = parsed.tool_choice.function.name;
        throw invalidChatRequest('toolChoiceUnavailable', { param: 'tool_choice', name });
      }
      const model = parsed.model ?? (await this.llm.defaultModel(signal));
      const result = await this.loop.run({
        model,
        messages: parsed.messages,
        tools,
        toolChoice: parsed.tool_choice,
        temperature: parsed.temperature,
        maxTokens: parsed.max_tokens,
        maxRounds: parsed.max_tool_rounds ?? this.config.loop.maxRounds,
        concurrency: this.config.loop.toolConcurrency,
        stream: parsed.stream,
        caller: { accountId: account.id, sessionId: workspace.sessionId },
        signal,
        emit,
      });
      this.rounds.observe(result.rounds);
      outcome = 'ok';
      return { result, execution: execution(result, workspace, this.config.workspace.root) };
    } finally {
      const labels = { tools: parsed.tools.length > 0 ? 'client' : 'server', stream: String(parsed.stream), outcome };
      this.requests.record(labels, Number(process.hrtime.bigint() - started) / 1e9);
    }
  }

  /** The server tools this caller may use (`GET /v1/tools`), as OpenAI function definitions. */
  async serverTools(request: AuthenticatedRequest, sessionId?: string): Promise<FunctionTool[]> {
    const account = request.account ?? ANONYMOUS;
    const workspace = this.workspaces.session(sessionId, account.id);
    return (
      await this.registry.forRequest({ request, accountType: account.type, workspace, clientTools: [] })
    ).definitions();
  }

  /**
   * The seed's server-side tool execution API (manual mode): runs one server tool for the caller —
   * confirm tools included, since the caller is the one confirming — in the session's workspace.
   */
  async callTool(
    name: string,
    body: unknown,
    request: AuthenticatedRequest,
  ): Promise<{ tool: string; session_id: string; content: string }> {
    const input = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
    const args = input.arguments ?? {};
    if (typeof args !== 'object' || Array.isArray(args) || args === null) {
      throw invalidChatRequest('notObject', { param: 'arguments' });
    }
    const sessionId = input.session_id;
    if (sessionId !== undefined && sessionId !== null && typeof sessionId !== 'string') {
      throw invalidChatRequest('notString', { param: 'session_id' });
    }
    const account = request.account ?? ANONYMOUS;
    const workspace = this.workspaces.session(sessionId ?? undefined, account.id);
    if (sessionId) await workspace.workspace();
    const knId = typeof input.kn_id === 'string' ? input.kn_id : undefined;
    const tools = await this.registry.forRequest({
      request: withKnId(request, knId),
      accountType: account.type,
      workspace,
      clientTools: [],
    });
    const tool = tools.get(name);
    if (!tool?.run)
      throw new AppException(ChatErrors.ToolNotFound, new LocalizedDetails('chat.tool.notFound', { name }));
    const call = { id: 'manual', type: 'function' as const, function: { name, arguments: JSON.stringify(args) } };
    const caller = { accountId: account.id, sessionId: workspace.sessionId };
    const outcome = await this.executor.execute(
      tool,
      call,
      caller,
      AbortSignal.timeout(this.config.loop.toolTimeoutMs + 1000),
    );
    if (!outcome.success) {
      const reason = outcome.content.replace(/^Tool execution failed: /, '');
      throw new AppException(
        ChatErrors.ToolFailed,
        new LocalizedDetails('chat.tool.failed', { tool_name: name, reason }),
      );
    }
    this.logger.debug(`manual tool call ${name} in ${workspace.sessionId}`);
    return { tool: name, session_id: workspace.sessionId, content: outcome.content };
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

/** The request every server tool reads, with the body's `kn_id` (if any) standing in for X-Kn-ID. */
function withKnId(request: AuthenticatedRequest, knId: string | undefined): AuthenticatedRequest {
  if (!knId) return request;
  const scoped = Object.create(request) as AuthenticatedRequest;
  Object.defineProperty(scoped, 'headers', { value: { ...request.headers, 'x-kn-id': knId } });
  return scoped;
}

/** `workspace_path` is named under WORKSPACE_ROOT as configured, never as the host's absolute path. */
function execution(result: LoopResult, workspace: WorkspaceSession, root: string): ToolExecution {
  return {
    executed: result.toolsCalled.length > 0,
    tools_called: result.toolsCalled,
    session_id: workspace.sessionId,
    workspace_path: `${root.replace(/\/+$/, '')}/${workspace.sessionId}`,
    rounds: result.rounds,
    truncated: result.truncated,
  };
}
