import { Logger } from '@nestjs/common';
import { CallMetrics } from '../metrics/metrics.service';
import { ChatToolCall } from './chat.types';
import { ChatTool, ToolOutcome } from './tools/tool-registry';

export interface ExecutorOptions {
  timeoutMs: number;
}

/**
 * Runs one tool call with its deadline and the request's cancellation, and turns every failure into a
 * tool message for the model (never an HTTP error). The policy, validation and the audit line are the
 * capability gateway's, behind `tool.run`; this counts the call in the chat tool metrics.
 */
export class ToolExecutor {
  private readonly logger = new Logger('ChatTools');

  constructor(
    private readonly options: ExecutorOptions,
    private readonly metrics: CallMetrics,
  ) {}

  async execute(tool: ChatTool, call: ChatToolCall, signal: AbortSignal): Promise<ToolOutcome> {
    const started = process.hrtime.bigint();
    const outcome = await this.run(tool, argumentsOf(call.function.arguments), signal);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    this.metrics.record(
      { tool: tool.kind === 'operator' ? `mcp:${tool.name}` : tool.name, outcome: outcome.success ? 'ok' : 'error' },
      seconds,
    );
    return outcome;
  }

  private async run(tool: ChatTool, args: unknown, signal: AbortSignal): Promise<ToolOutcome> {
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

  private async attempt(tool: ChatTool, args: unknown): Promise<ToolOutcome> {
    try {
      return await tool.run!(args);
    } catch (error) {
      // The gateway answers every expected failure as an outcome; anything thrown here is a bug.
      this.logger.error(`tool ${tool.name} failed: ${error instanceof Error ? error.stack : String(error)}`);
      return { success: false, content: 'Tool execution failed: internal error' };
    }
  }
}

/**
 * A tool call's `arguments` text as the gateway takes it: empty text is `{}`, JSON is its value (a
 * non-object is refused there as a type error), and text that does not parse stays text (refused as not
 * JSON) — every call, even a malformed one, goes through the gateway and its audit.
 */
export function argumentsOf(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
