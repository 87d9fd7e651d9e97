import { Inject, Injectable, Logger } from '@nestjs/common';
import type { McpContext } from '@rekog/mcp-nest';
import { z } from 'zod';
import type { AuthenticatedRequest } from '../auth/auth.guard';
import { currentRequestContext } from '../context/request-context';
import type { ErrorBody } from '../errors/app.exception';
import { ErrorPresenter } from '../errors/error-presenter';
import { inspectJson, isRecord, jsonProblemException } from '../http/json-inspection';
import { resolveKnId } from '../http/kn-id';
import { argumentInspection } from '../http/request-body';
import type { RequestWithId } from '../http/request-context.middleware';
import { languageFromHeaders } from '../i18n/language';
import { encodeToonFromJson } from '../response-format/toon';
import { ResponseFormat } from '../response-format/response-format';
import { configToken, I18nConfig, LimitsConfig } from '../../config';
import { CallMetrics, MetricsService } from '../../metrics/metrics.service';
import { ToolCallFacts, traceToolCall } from '../../tracing/tool-span';
import { currentTraceId } from '../../tracing/trace-ids';
import { parseArguments, toolResponseFormat } from './mcp-tool-arguments';

/** `_meta` keys on every result: which network answered and the request id to quote in support. */
export const KN_ID_META = 'agent-retrieval/kn_id';
export const REQUEST_ID_META = 'agent-retrieval/request_id';
/** Present only while tracing is on: the trace to look up in the tracing backend. */
export const TRACE_ID_META = 'agent-retrieval/trace_id';

export interface ToolInvocation<TInput> {
  tool: string;
  /** The tool's argument schema (the one advertised through `toolParameters`). */
  schema: z.ZodType<TInput>;
  args: unknown;
  context: McpContext;
  /** The text block is always JSON and `response_format` is ignored, even when invalid (get_action_info). */
  alwaysJson?: boolean;
  /**
   * The tool words its own text (weknora_search's Markdown): the blocks for a result, and the line for a
   * failure (the error body's code still goes to `_meta`). `response_format` is then not an argument.
   */
  text?: ToolText;
}

export interface ToolText {
  result(value: object): string[];
  failure(error: unknown, body: ErrorBody): string;
}

/** The MCP CallToolResult this server produces. */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta: Record<string, string>;
}

interface CallScope {
  request?: AuthenticatedRequest;
  knId?: string;
}

/**
 * The shared plumbing of every MCP tool, so tool classes stay thin: kn_id resolution (argument over
 * X-Kn-ID), argument validation, errors as `isError` results carrying the translated error body,
 * TOON/JSON text, one log line and the `mcp_tool_*` metrics per call.
 */
@Injectable()
export class McpToolRunner {
  private readonly logger = new Logger('McpTools');
  private readonly calls: CallMetrics;

  constructor(
    private readonly presenter: ErrorPresenter,
    metrics: MetricsService,
    @Inject(configToken('i18n')) private readonly i18n: I18nConfig,
    @Inject(configToken('limits')) private readonly limits: LimitsConfig,
  ) {
    this.calls = metrics.calls({
      total: 'mcp_tool_calls_total',
      duration: 'mcp_tool_duration_seconds',
      what: 'MCP tool calls',
      labels: ['tool', 'outcome'],
    });
  }

  /** A tool that reads one knowledge network: a missing kn_id is the documented tool error. */
  runForNetwork<TInput, TResult extends object>(
    invocation: ToolInvocation<TInput>,
    execute: (input: TInput, knId: string) => Promise<TResult>,
  ): Promise<ToolResult> {
    return this.run(invocation, execute, true);
  }

  /** A tool that needs no knowledge network (code graph-RAG, knowledge-base search). */
  runWithoutNetwork<TInput, TResult extends object>(
    invocation: ToolInvocation<TInput>,
    execute: (input: TInput) => Promise<TResult>,
  ): Promise<ToolResult> {
    return this.run(invocation, (input) => execute(input), false);
  }

  private run<TInput, TResult extends object>(
    invocation: ToolInvocation<TInput>,
    execute: (input: TInput, knId: string) => Promise<TResult>,
    needsKnId: boolean,
  ): Promise<ToolResult> {
    const scope: CallScope = { request: invocation.context.getRawRequest<AuthenticatedRequest>() };
    return traceToolCall(
      invocation.tool,
      () => this.call(invocation, execute, needsKnId, scope),
      (result) => this.facts(scope, result),
    );
  }

  private async call<TInput, TResult extends object>(
    invocation: ToolInvocation<TInput>,
    execute: (input: TInput, knId: string) => Promise<TResult>,
    needsKnId: boolean,
    scope: CallScope,
  ): Promise<ToolResult> {
    const started = process.hrtime.bigint();
    let result: ToolResult;
    try {
      this.rejectUnsafeArguments(invocation.args, scope.request);
      const args = isRecord(invocation.args) ? { ...invocation.args } : {};
      if (needsKnId) scope.knId = resolveKnId({ body: args, headers: scope.request?.headers });
      const ownText = invocation.text;
      const format: ResponseFormat =
        invocation.alwaysJson || ownText ? 'json' : toolResponseFormat(args.response_format);
      if (invocation.alwaysJson) delete args.response_format;
      const input = parseArguments(invocation.schema, args);
      const value = await execute(input, scope.knId ?? '');
      result = ownText ? this.ownTextSuccess(value, ownText, scope) : this.success(value, format, scope);
    } catch (error) {
      result = this.failure(error, scope, invocation.text);
    }
    this.record(invocation.tool, scope, result, started);
    return result;
  }

  /**
   * The first problem the endpoint's body check found in the arguments (too deep, too long, not valid
   * Unicode) is the error, naming the argument; arguments no body check saw (in-process callers) are
   * inspected here the same way, before a schema or encoder walks them.
   */
  private rejectUnsafeArguments(args: unknown, request: AuthenticatedRequest | undefined): void {
    const recorded = argumentInspection(request);
    const problem = recorded ? recorded[0] : inspectJson(args, this.limits.json);
    if (problem) throw jsonProblemException(problem, this.limits.json);
  }

  /**
   * One JSON round-trip gives both the JSON text and the plain copy that structuredContent and the
   * TOON encoder need (undefined fields dropped, class instances by their fields), so results of tens
   * of kilobytes are serialised once, not three times.
   */
  private success(value: object, format: ResponseFormat, scope: CallScope): ToolResult {
    const json = JSON.stringify(value);
    const plain = JSON.parse(json) as Record<string, unknown>;
    return {
      content: [{ type: 'text', text: format === 'toon' ? encodeToonFromJson(plain) : json }],
      structuredContent: plain,
      _meta: this.meta(scope),
    };
  }

  private ownTextSuccess(value: object, text: ToolText, scope: CallScope): ToolResult {
    const plain = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
    return {
      content: text.result(plain).map((block) => ({ type: 'text', text: block })),
      structuredContent: plain,
      _meta: this.meta(scope),
    };
  }

  /** The error body (translated into the caller's language) is the text, as REST would answer it. */
  private failure(error: unknown, scope: CallScope, text?: ToolText): ToolResult {
    const headers = scope.request?.headers ?? {};
    const language = currentRequestContext()?.language ?? languageFromHeaders(headers, this.i18n.defaultLanguage);
    const presented = this.presenter.present(error, language, this.requestId(scope));
    return {
      content: [{ type: 'text', text: text ? text.failure(error, presented.body) : JSON.stringify(presented.body) }],
      isError: true,
      _meta: { ...this.meta(scope), 'agent-retrieval/error_code': presented.body.code },
    };
  }

  private meta(scope: CallScope): Record<string, string> {
    const meta: Record<string, string> = {};
    if (scope.knId) meta[KN_ID_META] = scope.knId;
    const requestId = this.requestId(scope);
    if (requestId) meta[REQUEST_ID_META] = requestId;
    const traceId = currentTraceId();
    if (traceId) meta[TRACE_ID_META] = traceId;
    return meta;
  }

  private facts(scope: CallScope, result: ToolResult): ToolCallFacts {
    return {
      knId: scope.knId,
      outcome: result.isError ? 'error' : 'ok',
      errorCode: result._meta['agent-retrieval/error_code'],
    };
  }

  private requestId(scope: CallScope): string | undefined {
    return (scope.request as RequestWithId | undefined)?.id ?? currentRequestContext()?.requestId;
  }

  /** Never logs arguments: they may carry instance data or secrets pasted by a user (request id comes from pino-http). */
  private record(tool: string, scope: CallScope, result: ToolResult, started: bigint): void {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const { outcome } = this.facts(scope, result);
    this.calls.record({ tool, outcome }, seconds);
    const account = scope.request?.account ?? currentRequestContext()?.account;
    const line = {
      tool,
      kn_id: scope.knId,
      account_id: account?.id || undefined,
      latency_ms: Math.round(seconds * 1000 * 10) / 10,
      outcome,
      error_code: result._meta['agent-retrieval/error_code'],
    };
    if (outcome === 'ok') this.logger.log(line, 'mcp tool call');
    else this.logger.warn(line, 'mcp tool call failed');
  }
}
