import { Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { CallMetrics } from '../metrics/metrics.service';
import { ChatToolCall } from './chat.types';
import { ChatTool, ToolOutcome } from './tools/tool-registry';

/** Who is calling, for the audit line and the result cache. */
export interface CallerScope {
  accountId: string;
  sessionId: string;
}

export interface ExecutorOptions {
  timeoutMs: number;
  cacheTtlSeconds: number;
}

const ARGUMENT_PREVIEW = 500;
/** A key that names a secret as a whole word at its end: `password`, `api_key`, `x-api-key`, `access_token`, not `max_tokens`. */
const SECRET_KEY = /(^|[_-])(pass(word|wd)?|secret|token|api[_-]?key|authori[sz]ation|credentials?|cookie)$/i;

/**
 * Runs one tool call with its deadline, turns every failure into a tool message for the model (never
 * an HTTP error), reuses read-only results for TOOL_CACHE_TTL_S, and audits each call: one structured
 * log line (account, session, tool, redacted and truncated arguments, duration, outcome, result size)
 * and the chat tool metrics.
 */
export class ToolExecutor {
  private readonly logger = new Logger('ChatToolAudit');
  private readonly cache?: LRUCache<string, ToolOutcome>;

  constructor(
    private readonly options: ExecutorOptions,
    private readonly metrics: CallMetrics,
    /** Words a coded error (an AppException) for the model, e.g. its details in the caller's language. */
    private readonly explain: (error: Error) => string = (error) => error.message,
  ) {
    if (options.cacheTtlSeconds > 0) {
      this.cache = new LRUCache({
        max: 2000,
        ttl: options.cacheTtlSeconds * 1000,
        maxSize: 32 * 1024 * 1024,
        sizeCalculation: (o) => o.content.length + 1,
      });
    }
  }

  async execute(tool: ChatTool, call: ChatToolCall, caller: CallerScope, signal: AbortSignal): Promise<ToolOutcome> {
    const started = process.hrtime.bigint();
    const args = parseArguments(call.function.arguments);
    const key =
      tool.readOnly && this.cache && args.ok ? cacheKey(caller, tool.name, call.function.arguments) : undefined;
    let outcome: ToolOutcome;
    let cached = false;
    if (!args.ok) {
      outcome = { success: false, content: `Invalid arguments for ${tool.name}: ${args.message}` };
    } else if (key !== undefined && this.cache!.has(key)) {
      outcome = this.cache!.get(key)!;
      cached = true;
    } else {
      outcome = await this.run(tool, args.value, signal);
      if (key !== undefined && outcome.success) this.cache!.set(key, outcome);
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const result = outcome.success ? 'ok' : 'error';
    this.metrics.record({ tool: tool.kind === 'mcp' ? `mcp:${tool.name}` : tool.name, outcome: result }, seconds);
    this.logger.log(
      {
        account_id: caller.accountId || undefined,
        session_id: caller.sessionId,
        tool: tool.name,
        kind: tool.kind,
        arguments: redactedArguments(args.ok ? args.value : call.function.arguments),
        duration_ms: Math.round(seconds * 10000) / 10,
        outcome: result,
        result_bytes: Buffer.byteLength(outcome.content),
        cached: cached || undefined,
      },
      'chat tool call',
    );
    return outcome;
  }

  private async run(tool: ChatTool, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolOutcome> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<ToolOutcome>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({ success: false, content: `Tool ${tool.name} did not finish within ${this.options.timeoutMs} ms` }),
        this.options.timeoutMs,
      );
    });
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<ToolOutcome>((resolve) => {
      onAbort = () => resolve({ success: false, content: 'cancelled' });
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([this.attempt(tool, args), deadline, aborted]);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort!);
    }
  }

  private async attempt(tool: ChatTool, args: Record<string, unknown>): Promise<ToolOutcome> {
    try {
      return await tool.run!(args);
    } catch (error) {
      // Coded errors (workspace refusals, adapters) carry details written for the caller; anything else stays generic.
      const known = error instanceof Error && (error as { definition?: unknown }).definition !== undefined;
      if (!known)
        this.logger.error(`tool ${tool.name} failed: ${error instanceof Error ? error.stack : String(error)}`);
      return {
        success: false,
        content: `Tool execution failed: ${known ? this.explain(error as Error) : 'internal error'}`,
      };
    }
  }
}

type Parsed = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

/** A tool call's `arguments` JSON text as an object; empty text is `{}`. */
export function parseArguments(text: string): Parsed {
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value))
      return { ok: true, value: value as Record<string, unknown> };
    return { ok: false, message: 'arguments must be a JSON object' };
  } catch {
    return { ok: false, message: 'arguments are not valid JSON' };
  }
}

function cacheKey(caller: CallerScope, tool: string, args: string): string {
  return JSON.stringify([caller.accountId, caller.sessionId, tool, args]);
}

/** Arguments for the audit line: secret-looking keys masked, long strings cut, the whole bounded. */
export function redactedArguments(args: unknown): string {
  // Text that is not JSON cannot be masked key by key: only its length is logged.
  if (typeof args === 'string') return `[unparsable arguments, ${args.length} characters]`;
  const text = JSON.stringify(redact(args, [])) ?? '';
  return text.length > ARGUMENT_PREVIEW ? `${text.slice(0, ARGUMENT_PREVIEW)}…` : text;
}

/** A copy with secrets masked; `ancestors` tells a cycle from an object merely used twice. */
function redact(value: unknown, ancestors: object[]): unknown {
  if (typeof value === 'string') return value.length > 200 ? `${value.slice(0, 200)}…` : value;
  if (value === null || typeof value !== 'object') return value;
  if (ancestors.includes(value) || ancestors.length > 32) return '[cycle]';
  const inner = [...ancestors, value];
  if (Array.isArray(value)) return value.slice(0, 100).map((item) => redact(item, inner));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, item]) => [
      key,
      SECRET_KEY.test(key) ? '[redacted]' : redact(item, inner),
    ]),
  );
}
