import { Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { CallMetrics } from '../metrics/metrics.service';
import { ChatToolCall } from './chat.types';
import { ChatTool, ToolOutcome } from './tools/tool-registry';
import { WorkspaceError } from './workspace/workspace-error';

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
const SECRET_KEY = /(pass(word)?|secret|token|api[_-]?key|authori[sz]ation|credential|cookie)/i;

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
    const aborted = new Promise<ToolOutcome>((resolve) => {
      if (signal.aborted) resolve({ success: false, content: 'cancelled' });
      signal.addEventListener('abort', () => resolve({ success: false, content: 'cancelled' }), { once: true });
    });
    try {
      return await Promise.race([this.attempt(tool, args), deadline, aborted]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async attempt(tool: ChatTool, args: Record<string, unknown>): Promise<ToolOutcome> {
    try {
      return await tool.run!(args);
    } catch (error) {
      // Workspace and adapter errors carry messages written for the caller; anything else stays generic.
      const known = error instanceof WorkspaceError || (error as { definition?: unknown }).definition !== undefined;
      if (!known) this.logger.error(`tool ${tool.name} failed: ${(error as Error)?.stack ?? String(error)}`);
      return {
        success: false,
        content: `Tool execution failed: ${known ? (error as Error).message : 'internal error'}`,
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

/** Arguments for the audit line: secret-looking keys masked, long values cut, the whole bounded. */
export function redactedArguments(args: unknown): string {
  const seen = new WeakSet<object>();
  const text =
    JSON.stringify(args, (key, value: unknown) => {
      if (key && SECRET_KEY.test(key)) return '[redacted]';
      if (typeof value === 'string' && value.length > 200) return `${value.slice(0, 200)}…`;
      if (value && typeof value === 'object') {
        if (seen.has(value)) return '[cycle]';
        seen.add(value);
      }
      return value;
    }) ?? '';
  return text.length > ARGUMENT_PREVIEW ? `${text.slice(0, ARGUMENT_PREVIEW)}…` : text;
}
