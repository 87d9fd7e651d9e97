import { ChatErrors, modelError } from './chat.errors';
import { ChatToolCall, ToolCallDelta } from './chat.types';

/** Longest tool call id and name the model may send (OpenAI's own names stop at 64 characters). */
export const TOOL_CALL_ID_LIMIT = 256;
export const TOOL_CALL_NAME_LIMIT = 256;

export interface AssemblyBounds {
  /** Calls kept per round (CHAT_MAX_TOOL_CALLS); later ones are counted, not kept. */
  keep: number;
  /** Bytes of one call's `arguments` text (CHAT_MAX_TOOL_ARGUMENTS_BYTES). */
  argumentsBytes: number;
}

/**
 * The tool calls of one model answer, assembled from its deltas as the model sends them — and checked
 * as they arrive, since the model is an untrusted party: the first `index` is 0 and a later one a whole
 * number at most `keep` past the highest so far (gaps are merged by order, never allocated), ids and names are short,
 * each call's arguments stay under the bound. Anything else is a 502 `model_error` at once. Every check
 * costs the same whatever numbers the model sends; calls past `keep` cost a counter.
 */
export class ToolCallAssembly {
  private readonly byIndex = new Map<number, ChatToolCall>();
  private readonly ordered: { index: number; call: ChatToolCall }[] = [];
  private readonly argumentBytes = new Map<ChatToolCall, number>();
  private highest = -1;
  /** Calls the model asked for beyond `keep`: never run. */
  overflow = 0;

  constructor(private readonly bounds: AssemblyBounds) {}

  /** Takes one delta; true when it belongs to a kept call (false: a call past `keep`, only counted). */
  add(delta: ToolCallDelta): boolean {
    const { index } = delta;
    // OpenAI numbers the calls of an answer from 0; a later call may skip ahead (its gap is closed by order).
    const furthest = this.highest < 0 ? 0 : this.highest + this.bounds.keep;
    if (!Number.isSafeInteger(index) || index < 0 || index > furthest) {
      throw modelError(ChatErrors.ModelOutputInvalid, 'toolCallIndex', {
        index: String(index).slice(0, 24),
        leap: this.bounds.keep,
      });
    }
    let call = this.byIndex.get(index);
    if (!call) {
      const isNew = index > this.highest;
      this.highest = Math.max(this.highest, index);
      if (this.ordered.length >= this.bounds.keep) {
        // Counted when first seen as the highest index; later deltas of the same call are not counted again.
        if (isNew) this.overflow += 1;
        this.checkSizes(delta, undefined);
        return false;
      }
      call = { id: '', type: 'function', function: { name: '', arguments: '' } };
      this.byIndex.set(index, call);
      this.ordered.push({ index, call });
    }
    this.checkSizes(delta, call);
    if (delta.id) call.id = delta.id;
    if (delta.function?.name) call.function.name += delta.function.name;
    if (delta.function?.arguments) call.function.arguments += delta.function.arguments;
    return true;
  }

  /** The kept calls in index order (gaps closed). */
  calls(): ChatToolCall[] {
    return [...this.ordered].sort((a, b) => a.index - b.index).map(({ call }) => call);
  }

  /** The bounds hold for calls not kept as well: a model cannot send a 1 MB name by sending it late. */
  private checkSizes(delta: ToolCallDelta, call: ChatToolCall | undefined): void {
    const id = delta.id ?? '';
    if (id.length > TOOL_CALL_ID_LIMIT) {
      throw modelError(ChatErrors.ModelOutputInvalid, 'toolCallId', { limit: TOOL_CALL_ID_LIMIT });
    }
    const name = delta.function?.name ?? '';
    if (name.length + (call?.function.name.length ?? 0) > TOOL_CALL_NAME_LIMIT) {
      throw modelError(ChatErrors.ModelOutputInvalid, 'toolCallName', { limit: TOOL_CALL_NAME_LIMIT });
    }
    const piece = delta.function?.arguments;
    if (!piece) return;
    const bytes = Buffer.byteLength(piece) + (call ? (this.argumentBytes.get(call) ?? 0) : 0);
    if (bytes > this.bounds.argumentsBytes) {
      throw modelError(ChatErrors.ModelOutputInvalid, 'toolCallArguments', { limit: this.bounds.argumentsBytes });
    }
    if (call) this.argumentBytes.set(call, bytes);
  }
}

/**
 * The answer text of one turn, over every round, bounded by CHAT_MAX_ANSWER_BYTES: `take` passes on what
 * still fits. A streamed turn keeps only a short tail (what the tool-call rounds echo back to the model);
 * a non-streamed one keeps the text it will answer with.
 */
export class AnswerText {
  private used = 0;
  private kept = '';
  /** True once a delta did not fit: the turn ends with `finish_reason: "length"`. */
  full = false;

  constructor(
    private readonly limitBytes: number,
    private readonly keepBytes: number,
  ) {}

  /** Starts the text of a new model answer (the bytes already used still count). */
  reset(): void {
    this.kept = '';
  }

  /** The part of `delta` within the bound (all of it, usually); '' once the bound is reached. */
  take(delta: string): string {
    if (this.full) return '';
    const bytes = Buffer.byteLength(delta);
    let passed = delta;
    if (this.used + bytes > this.limitBytes) {
      passed = utf8Prefix(delta, this.limitBytes - this.used);
      this.full = true;
    }
    this.used += passed === delta ? bytes : Buffer.byteLength(passed);
    this.kept += passed;
    if (this.kept.length > this.keepBytes) this.kept = this.kept.slice(-this.keepBytes);
    return passed;
  }

  /** The text kept of the current answer, null when there is none. */
  text(): string | null {
    return this.kept === '' ? null : this.kept;
  }
}

/** The longest prefix of `text` whose UTF-8 form fits in `bytes`, never splitting a character. */
export function utf8Prefix(text: string, bytes: number): string {
  if (bytes <= 0) return '';
  const encoded = Buffer.from(text, 'utf8');
  if (encoded.length <= bytes) return text;
  let end = bytes;
  // Back off continuation bytes (10xxxxxx) so the cut falls on a character boundary.
  while (end > 0 && (encoded[end] & 0xc0) === 0x80) end -= 1;
  return encoded.subarray(0, end).toString('utf8');
}

/** A tool result as the model reads it: cut at `bytes` with a note saying so. */
export function boundedResult(content: string, bytes: number): string {
  if (content.length <= bytes / 3 || Buffer.byteLength(content) <= bytes) return content;
  const note = `\n[cut: the result is ${Buffer.byteLength(content)} bytes, over the ${bytes}-byte limit (CHAT_MAX_TOOL_RESULT_BYTES)]`;
  return utf8Prefix(content, bytes - Buffer.byteLength(note)) + note;
}

/**
 * A call's identity for repeat detection: its name and its arguments with object keys sorted, so the same
 * call written two ways is one call. Arguments that do not parse are compared as text.
 */
export function callKey(call: ChatToolCall): string {
  const { name, arguments: text } = call.function;
  try {
    return `${name}\u0000${JSON.stringify(sortKeys(JSON.parse(text || '{}')))}`;
  } catch {
    // Text that does not parse, or nesting too deep to sort: compared as written.
    return `${name}\u0000${text}`;
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, sortKeys(record[key])]),
  );
}
