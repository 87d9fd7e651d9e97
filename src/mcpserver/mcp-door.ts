import { Inject, Injectable, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { CallToolResult, ProtocolError, ProtocolErrorCode, Tool } from '@modelcontextprotocol/server';
import { MCP_STRATEGY } from '@rekog/mcp-nest';
import type { Request } from 'express';
import type { ProgressReporter } from '../capabilities/capability';
import { Capability, CapabilityCatalog } from '../capabilities/capability-catalog';
import { CallScope, CapabilityGateway } from '../capabilities/capability-gateway';
import { advertisedInput, jsonSchemaOf } from '../capabilities/capability-input';
import { listedOutputSchema, listedSchema, localizedText } from '../capabilities/capability-listing';
import { renderFailure, renderResult } from '../capabilities/capability-text';
import { requestScope } from '../capabilities/call-scope';
import type { AuthenticatedRequest } from '../common/auth/auth.guard';
import { ErrorPresenter } from '../common/errors/error-presenter';
import { isRecord } from '../common/http/json-inspection';
import { argumentInspection } from '../common/http/request-body';
import { languageFromHeaders } from '../common/i18n/language';
import { AccessPolicyService } from '../governance/access-policy.service';
import { configToken, I18nConfig } from '../config';
import { Language } from '../config/i18n.config';
import { CallMetrics, MetricsService } from '../metrics/metrics.service';
import { currentTraceId } from '../tracing/trace-ids';
import { traceToolCall } from '../tracing/tool-span';
import { connectionScope } from './connection-scope';
import { ConnectionOffer } from './connection-offer';
import { SERVER_INSTRUCTIONS } from './server-instructions';
import { MCP_SERVER_NAME, packageVersion } from './mcp-endpoint.factory';
import { ApprovalInputRequired } from '../actionrecall/action-approval';
import { accountKey, McpApproval, McpCall, McpCallContext } from './mcp-approval';
import { CatalogMcpStrategy, McpConnection, McpRequestHandlers, McpServerHandlers } from './mcp-nest.extension';
import { McpTasks } from './mcp-tasks';
import {
  declaresTasks,
  installLegacyTaskMethods,
  installTaskMethods,
  legacyCreateTaskResult,
} from './mcp-task-methods';
import { NetworkCatalog, RESOURCE_TEMPLATES, ResourceScope } from './network-catalog';
import { NETWORK_PROMPTS, NetworkPrompt, renderPrompt } from './network-prompts';
import { MCP_SECURITY_SCHEMES } from './mcp-paths';

/** `_meta` keys on every tool result: which network answered and the request id to quote in support. */
export const KN_ID_META = 'agent-retrieval/kn_id';
export const REQUEST_ID_META = 'agent-retrieval/request_id';
/** Present only while tracing is on: the trace to look up in the tracing backend. */
export const TRACE_ID_META = 'agent-retrieval/trace_id';
export const ERROR_CODE_META = 'agent-retrieval/error_code';

type SecurityScheme = Record<string, unknown>;

/** What GET /mcp/info answers. */
export interface McpInfo {
  server: { name: string; version: string };
  instructions: string;
  /** The connection's network (X-Kn-ID), which decides the knowledge-network tools. */
  kn_id: string | null;
  tools: Tool[];
  prompts: unknown[];
  resourceTemplates: unknown[];
}

/**
 * The MCP door (SPEC §7, §12): tools, resources, prompts and completions generated from the capability
 * catalog and filtered by the access policy, each tool call run through the capability gateway. A
 * caller's tool list is built once per account type, language and policy version.
 */
@Injectable()
export class McpDoor implements McpServerHandlers, OnModuleInit, OnApplicationBootstrap {
  private readonly toolLists = new Map<string, Tool[]>();
  private toolListsVersion = -1;
  private readonly calls: CallMetrics;

  constructor(
    @Inject(MCP_STRATEGY) private readonly strategy: CatalogMcpStrategy,
    private readonly catalog: CapabilityCatalog,
    private readonly gateway: CapabilityGateway,
    private readonly policy: AccessPolicyService,
    private readonly presenter: ErrorPresenter,
    private readonly networks: NetworkCatalog,
    private readonly offer: ConnectionOffer,
    @Inject(configToken('i18n')) private readonly i18n: I18nConfig,
    @Inject(MCP_SECURITY_SCHEMES) private readonly securitySchemes: SecurityScheme[],
    private readonly approval: McpApproval,
    private readonly tasks: McpTasks,
    metrics: MetricsService,
  ) {
    this.calls = metrics.calls({
      total: 'mcp_tool_calls_total',
      duration: 'mcp_tool_duration_seconds',
      what: 'MCP tool calls',
      labels: ['tool', 'outcome'],
    });
  }

  onModuleInit(): void {
    this.strategy.serve(this);
  }

  /** A prompt that teaches a tool the catalog does not have is a programming error: refuse to start. */
  onApplicationBootstrap(): void {
    for (const prompt of NETWORK_PROMPTS) {
      const missing = prompt.tools.find((tool) => !this.catalog.get(tool)?.definition.doors.includes('mcp'));
      if (missing) throw new Error(`prompt ${prompt.name} names ${missing}, which is not an MCP tool of the catalog`);
    }
  }

  /**
   * Installs the handler of each method this request calls (every method for a message it cannot tell):
   * a stateless request is served by its own server, so the work per request stays the same however many
   * methods, tools or networks there are.
   */
  install(handlers: McpRequestHandlers, connection: McpConnection): void {
    const wanted = methodsOf(connection.request?.body);
    const wants = (method: HandledMethod): boolean => !wanted || wanted.has(method);
    const request = connection.request;
    if (wants('tools/list'))
      handlers.setRequestHandler('tools/list', async () => ({ tools: await this.tools(request) }));
    if (wants('tools/call')) {
      handlers.setRequestHandler('tools/call', (message, context) =>
        this.toolCall(message.params.name, message.params.arguments, message.params._meta, {
          era: connection.era,
          request,
          handlers,
          context: context as unknown as McpCallContext,
          taskAsked: connection.era === 'legacy' && isRecord((message.params as { task?: unknown }).task),
        }),
      );
    }
    if (['tasks/get', 'tasks/cancel', 'tasks/result', 'tasks/list'].some((method) => !wanted || wanted.has(method))) {
      const owner = accountKey(requestScope('mcp', request, this.i18n.defaultLanguage).principal);
      if (connection.era === 'modern') installTaskMethods(handlers, this.tasks, owner);
      else installLegacyTaskMethods(handlers, this.tasks, owner);
    }
    if (wants('resources/list')) {
      handlers.setRequestHandler('resources/list', async () => ({
        resources: await this.networks.list(this.resourceScope(request)),
      }));
    }
    if (wants('resources/templates/list')) {
      handlers.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: this.templates(request) }));
    }
    if (wants('resources/read')) {
      handlers.setRequestHandler('resources/read', (message) =>
        this.networks.read(message.params.uri, this.resourceScope(request)),
      );
    }
    if (wants('prompts/list')) {
      handlers.setRequestHandler('prompts/list', () => ({ prompts: this.prompts(request) }));
    }
    if (wants('prompts/get')) {
      handlers.setRequestHandler('prompts/get', (message) =>
        this.prompt(message.params.name, message.params.arguments ?? {}, request),
      );
    }
    if (wants('completion/complete')) {
      handlers.setRequestHandler('completion/complete', (message) => this.complete(message, request));
    }
  }

  private async complete(message: CompleteMessage, request: AuthenticatedRequest | undefined) {
    const { argument, context, ref } = message.params;
    const scope = this.resourceScope(request);
    const knId = context?.arguments?.kn_id ?? knIdOfUri('uri' in ref ? ref.uri : undefined) ?? scope.connectionKnId;
    return { completion: await this.networks.complete(argument.name, String(argument.value ?? ''), knId, scope) };
  }

  /** GET /mcp/info: the server and what this connection is offered, as the MCP methods would list it. */
  async info(request: Request): Promise<McpInfo> {
    const authenticated = request as AuthenticatedRequest;
    return {
      server: { name: MCP_SERVER_NAME, version: packageVersion() },
      instructions: SERVER_INSTRUCTIONS[this.language(request)],
      kn_id: connectionScope(request) ?? null,
      tools: await this.tools(authenticated),
      prompts: this.prompts(authenticated),
      resourceTemplates: this.templates(request),
    };
  }

  /** The server's instructions in the caller's language (Accept-Language, then DEFAULT_LANGUAGE). */
  instructions(connection: McpConnection): string {
    return SERVER_INSTRUCTIONS[this.language(connection.request)];
  }

  /**
   * The tools this connection is offered (the same rule decides whether a call may run): those the access
   * policy allows, whose needs exist for the connection's X-Kn-ID network, in catalog order and the
   * caller's language. The descriptions are built once per account type, language and policy version.
   */
  private async tools(request: AuthenticatedRequest | undefined): Promise<Tool[]> {
    if (this.toolListsVersion !== this.policy.version) {
      this.toolLists.clear();
      this.toolListsVersion = this.policy.version;
    }
    const principal = requestScope('mcp', request, this.i18n.defaultLanguage).principal;
    const language = this.language(request);
    const key = `${principal.type}\u0000${language}`;
    let tools = this.toolLists.get(key);
    if (!tools) {
      tools = this.catalog
        .list('mcp')
        .filter((capability) => this.gateway.decide(capability, principal).allowed)
        .map((capability) => this.describe(capability, language));
      this.toolLists.set(key, tools);
    }
    const knId = connectionScope(request);
    const offered = await Promise.all(
      tools.map(
        async (tool) => !(await this.offer.missing(this.catalog.get(tool.name)!.definition, knId, request?.headers)),
      ),
    );
    return tools.filter((_tool, index) => offered[index]);
  }

  private language(request: Request | undefined): Language {
    return languageFromHeaders(request?.headers ?? {}, this.i18n.defaultLanguage);
  }

  private describe({ definition }: Capability, language: Language): Tool {
    const title = definition.title[language];
    const { readOnly, destructive, idempotent, openWorld } = definition.annotations;
    return {
      name: definition.name,
      title,
      description: definition.description[language],
      inputSchema: listedSchema(advertisedInput(definition), language) as Tool['inputSchema'],
      outputSchema: listedOutputSchema(jsonSchemaOf(definition.output, 'output'), language) as Tool['outputSchema'],
      // The spec gives destructive and idempotent hints meaning only for a tool that is not read-only.
      annotations: readOnly
        ? { readOnlyHint: true, openWorldHint: openWorld }
        : { readOnlyHint: false, destructiveHint: destructive, idempotentHint: idempotent, openWorldHint: openWorld },
      // mcp-nest cannot see the Nest guard that protects the route: say what the endpoint really requires.
      _meta: { securitySchemes: this.securitySchemes },
    };
  }

  /**
   * One tool call: asks the human through the client's channel when an action needs approval (answered
   * with `input_required` on 2026-07-28), and becomes a task when the client declared the tasks
   * extension and the call outlives MCP_TASK_THRESHOLD_MS.
   */
  private async toolCall(
    name: string,
    args: unknown,
    meta: Record<string, unknown> | undefined,
    call: Omit<McpCall, 'principal' | 'tool' | 'arguments'> & { taskAsked: boolean },
  ) {
    const principal = requestScope('mcp', call.request, this.i18n.defaultLanguage).principal;
    const bound: McpCall = { ...call, principal, tool: name, arguments: args };
    const human = this.approval.channelFor(bound);
    const run = (extra: Pick<CallScope, 'signal' | 'progress' | 'human'>) =>
      this.callTool(name, args, call.request, meta, extra);
    if (human || !(call.taskAsked || declaresTasks(call.context))) {
      try {
        return await run({ human });
      } catch (error) {
        if (error instanceof ApprovalInputRequired) return this.approval.inputRequired(bound, error);
        throw error;
      }
    }
    const job = { run: (signal: AbortSignal, progress: ProgressReporter) => run({ signal, progress }) };
    const atOnce = call.taskAsked || this.catalog.get(name)?.definition.runsLong === true;
    const started = await this.tasks.start(accountKey(principal), job, atOnce);
    if (!('task' in started)) return started.result;
    if (call.taskAsked) return legacyCreateTaskResult(started.task) as unknown as CallToolResult;
    // The tasks extension's CreateTaskResult: the SDK's types model only the core result shapes.
    return { resultType: 'task', ...started.task } as unknown as CallToolResult;
  }

  private callTool(
    name: string,
    args: unknown,
    request: AuthenticatedRequest | undefined,
    meta?: Record<string, unknown>,
    extra: Pick<CallScope, 'signal' | 'progress' | 'human'> = {},
  ): Promise<CallToolResult> {
    const capability = this.catalog.get(name);
    // An unknown tool is a bad params.name (-32602), not an unimplemented method.
    if (!capability?.definition.doors.includes('mcp')) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name.slice(0, 200)}`);
    }
    const scope: CallScope = {
      ...requestScope('mcp', request, this.i18n.defaultLanguage),
      argumentProblems: argumentInspection(request),
      // A capability without a network of its own is offered by the connection's (as tools/list decides).
      offered: (definition, knId) => this.offer.missing(definition, knId || connectionScope(request), request?.headers),
      ...extra,
    };
    let knId: string | undefined;
    const started = process.hrtime.bigint();
    return traceToolCall(
      name,
      async () => {
        try {
          const outcome = await this.gateway.call(capability, args, scope);
          knId = outcome.knId;
          const rendered = renderResult(
            capability.definition,
            outcome.value,
            isRecord(args) ? args.response_format : undefined,
          );
          return {
            content: rendered.blocks.map((text) => ({ type: 'text' as const, text })),
            structuredContent: rendered.structured,
            _meta: this.meta(scope, outcome.knId),
          };
        } catch (error) {
          if (error instanceof ApprovalInputRequired) throw error;
          knId = scope.resolvedKnId;
          const { body } = this.presenter.present(error, scope.language, scope.requestId);
          return {
            content: [{ type: 'text' as const, text: renderFailure(capability.definition, error, body) }],
            isError: true,
            _meta: { ...this.meta(scope, scope.resolvedKnId), [ERROR_CODE_META]: body.code },
          };
        }
      },
      (result) => {
        const outcome = result.isError ? 'error' : 'ok';
        this.calls.record({ tool: name, outcome }, Number(process.hrtime.bigint() - started) / 1e9);
        return { knId, outcome, errorCode: result._meta?.[ERROR_CODE_META] as string | undefined };
      },
      meta,
    );
  }

  private meta(scope: CallScope, knId: string | undefined): Record<string, string> {
    const meta: Record<string, string> = {};
    if (knId) meta[KN_ID_META] = knId;
    if (scope.requestId) meta[REQUEST_ID_META] = scope.requestId;
    const traceId = currentTraceId();
    if (traceId) meta[TRACE_ID_META] = traceId;
    return meta;
  }

  /**
   * Prompts whose every tool the caller may call, in its language. Not narrowed to the connection's
   * network: a prompt takes a kn_id, and its tools then work for that network.
   */
  private prompts(request: AuthenticatedRequest | undefined) {
    const language = this.language(request);
    return this.offeredPrompts(request).map(({ name, title, description, arguments: args }) => ({
      name,
      title: localizedText(title, language),
      description: localizedText(description, language),
      arguments: args.map((argument) => ({
        ...argument,
        description: localizedText(argument.description, language),
      })),
    }));
  }

  private templates(request: Request | undefined) {
    const language = this.language(request);
    return RESOURCE_TEMPLATES.map((template) => ({
      ...template,
      description: localizedText(template.description, language),
    }));
  }

  private async prompt(name: string, args: Record<string, string>, request: AuthenticatedRequest | undefined) {
    const prompt = this.offeredPrompts(request).find((candidate) => candidate.name === name);
    if (!prompt) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${name.slice(0, 200)}`);
    const missing = prompt.arguments.find((argument) => argument.required && !args[argument.name]?.trim());
    if (missing) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${missing.name} is required`);
    const scope = this.resourceScope(request);
    const knId = args.kn_id?.trim() || scope.connectionKnId;
    if (knId && !scope.sees(knId)) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `no knowledge network "${knId.slice(0, 256)}"`);
    }
    const language = requestScope('mcp', request, this.i18n.defaultLanguage).language;
    return renderPrompt(prompt, args, knId || '<kn_id>', language);
  }

  private offeredPrompts(request: AuthenticatedRequest | undefined): NetworkPrompt[] {
    const principal = requestScope('mcp', request, this.i18n.defaultLanguage).principal;
    return NETWORK_PROMPTS.filter((prompt) =>
      prompt.tools.every((tool) => {
        const capability = this.catalog.get(tool);
        return capability !== undefined && this.gateway.decide(capability, principal).allowed;
      }),
    );
  }

  private resourceScope(request: Request | undefined): ResourceScope {
    const principal = requestScope('mcp', request, this.i18n.defaultLanguage).principal;
    return {
      connectionKnId: connectionScope(request),
      sees: (knId) => this.gateway.seesNetwork(principal, knId),
    };
  }
}

type HandledMethod =
  | 'tools/list'
  | 'tools/call'
  | 'resources/list'
  | 'resources/templates/list'
  | 'resources/read'
  | 'prompts/list'
  | 'prompts/get'
  | 'completion/complete';

interface CompleteMessage {
  params: {
    ref: { type: string; uri?: string; name?: string };
    argument: { name: string; value?: string };
    context?: { arguments?: Record<string, string> };
  };
}

/** The methods a JSON-RPC body calls, or undefined when it is not a message (or batch) we can read. */
function methodsOf(body: unknown): ReadonlySet<string> | undefined {
  const messages = Array.isArray(body) ? body : [body];
  const methods = new Set<string>();
  for (const message of messages) {
    const method = isRecord(message) ? message.method : undefined;
    if (typeof method !== 'string') return undefined;
    methods.add(method);
  }
  return methods;
}

/** The kn_id of a `kn://{kn_id}/…` URI, when it is already filled in. */
function knIdOfUri(uri: string | undefined): string | undefined {
  return /^kn:\/\/([^/{}]+)/.exec(uri ?? '')?.[1];
}
