import type { Response } from 'express';

/** The fields every `chat.completion.chunk` of one turn shares. */
export interface ChunkIdentity {
  id: string;
  created: number;
  model: string;
}

type ChunkBase = ChunkIdentity & { object: 'chat.completion.chunk' };

/**
 * Which fields a stream's frames carry. `openai`: OpenAI's chunks, the text once per frame, and the tool
 * events in frames of their own (`choices: []`). `seed`: every frame also carries the seed's `type`, and a
 * content frame its text again in a top-level `delta`, as the seed's example client reads them.
 */
export type EventFields = 'openai' | 'seed';

export interface StreamOptions {
  fields: EventFields;
  /** How long frames may wait for a client that reads nothing (CHAT_CLIENT_IDLE_MS). */
  idleMs: number;
  /** Called once the client has read nothing for idleMs while frames waited. */
  onIdle(): void;
}

/**
 * The server-sent-events side of a streamed turn. Frames leave once per event-loop turn, or when the turn
 * asks whether the client is {@link ready} with {@link FLUSH_AT_CHARS} or more pending: everything the
 * model's reads of one event-loop turn produced goes out in one socket write, the headers with the first,
 * and the last frame, `data: [DONE]` and the end of the response with whatever is still pending. An
 * answer that arrives whole thus leaves in one write. The first frame with a choice carries `delta.role`.
 */
export class ChatEventStream {
  private base: ChunkBase;
  /** A content frame up to its text: content frames, by far the most, are written without building objects. */
  private contentHead: string | undefined;
  /** The shared fields as JSON without the closing brace, made once per identity. */
  private baseText: string | undefined;
  private pending = '';
  private scheduled: NodeJS.Immediate | undefined;
  private opened = false;
  private roleSent = false;

  constructor(
    private readonly response: Response,
    private readonly options: StreamOptions,
  ) {
    this.base = { id: '', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: '' };
  }

  /** True once the status is decided: from then on an error can only travel as a frame. */
  get started(): boolean {
    return this.opened;
  }

  /** The completion every later frame names. */
  identify({ id, created, model }: ChunkIdentity): void {
    if (id === this.base.id && created === this.base.created && model === this.base.model) return;
    this.base = { id, object: 'chat.completion.chunk', created, model };
    this.contentHead = undefined;
    this.baseText = undefined;
  }

  /**
   * The same frame as `choiceFrame({content: text}, null)` (and, for the seed's fields, `type: 'content'`
   * and the top-level `delta`), written as text.
   */
  content(text: string): void {
    // The turn's first frame with a choice carries the role, also written as text.
    const head = this.roleSent ? (this.contentHead ??= this.headOf(CONTENT_KEY)) : this.headOf(ROLE_AND_CONTENT_KEY);
    this.roleSent = true;
    const quoted = JSON.stringify(text);
    const tail = this.options.fields === 'seed' ? `,"type":"content","delta":{"content":${quoted}}` : '';
    this.push(`${head}${quoted}},"finish_reason":null}]${tail}}\n\n`);
  }

  /** Fields of a frame of the first choice: `delta` (with the role, on the turn's first), its finish reason. */
  choiceFrame(
    delta: Record<string, unknown>,
    finishReason: string | null,
    fields: Record<string, unknown> = {},
  ): Record<string, unknown> {
    const withRole = this.roleSent ? delta : { role: 'assistant', ...delta };
    this.roleSent = true;
    return { choices: [{ index: 0, delta: withRole, finish_reason: finishReason }], ...fields };
  }

  /** True when the seed's `type` and `delta` fields go on every frame. */
  get seedFields(): boolean {
    return this.options.fields === 'seed';
  }

  /**
   * Writes what is pending when that is {@link FLUSH_AT_CHARS} or more, and says whether the client can take
   * more: undefined when it can, else a promise resolved once it drained (or went away). A client that reads
   * nothing for `idleMs` meanwhile is cut off. The turn waits on it before reading more of the model's
   * answer, so the model's connection is what waits.
   */
  ready(): Promise<void> | undefined {
    // Less than that waits for the end of the event-loop turn (or the last frame): each write is a system call.
    if (this.pending.length >= FLUSH_AT_CHARS) {
      this.cancelFlush();
      this.flush();
    }
    const response = this.response;
    if (!response.writableNeedDrain || response.destroyed) return undefined;
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        response.off('drain', done);
        response.off('close', done);
        resolve();
      };
      const timer = setTimeout(() => {
        done();
        this.options.onIdle();
      }, this.options.idleMs);
      response.once('drain', done);
      response.once('close', done);
    });
  }

  /** A chunk of this completion with the given fields after the shared ones. */
  chunk(fields: Record<string, unknown>): void {
    this.push(sseFrame(this.chunkOf(fields)));
  }

  chunkOf(fields: Record<string, unknown>): Record<string, unknown> {
    return { ...this.base, ...fields };
  }

  /** The last frame (a done chunk, or an error body), then `data: [DONE]`, with whatever is pending, in one write. */
  finish(frame: object): void {
    this.cancelFlush();
    this.open();
    const text = `${this.pending}${sseFrame(frame)}data: [DONE]\n\n`;
    this.pending = '';
    this.response.end(text);
  }

  /** The client went away: nothing more is written. */
  abandon(): void {
    this.cancelFlush();
    this.pending = '';
    if (!this.response.destroyed) this.response.end();
  }

  private push(text: string): void {
    this.open();
    this.pending += text;
    this.scheduled ??= setImmediate(this.flush);
  }

  private readonly flush = (): void => {
    this.scheduled = undefined;
    const text = this.pending;
    this.pending = '';
    if (text !== '' && !this.response.writableEnded) this.response.write(text);
  };

  private cancelFlush(): void {
    clearImmediate(this.scheduled);
    this.scheduled = undefined;
  }

  /** `data: {…base,"choices":[{"index":0,` then `key`: the start of a content frame. */
  private headOf(key: string): string {
    this.baseText ??= JSON.stringify(this.base).slice(0, -1);
    return `data: ${this.baseText},"choices":[{"index":0,${key}`;
  }

  private open(): void {
    if (this.opened) return;
    this.opened = true;
    this.response.status(200);
    this.response.setHeader('content-type', 'text/event-stream; charset=utf-8');
    this.response.setHeader('cache-control', 'no-cache');
    this.response.setHeader('x-accel-buffering', 'no');
  }
}

/**
 * Pending text that {@link ChatEventStream.ready} writes at once (Node's default high-water mark, in UTF-16
 * units), so what waits for the socket stays bounded however fast the model sends.
 */
const FLUSH_AT_CHARS = 16 * 1024;
const CONTENT_KEY = '"delta":{"content":';
const ROLE_AND_CONTENT_KEY = '"delta":{"role":"assistant","content":';

function sseFrame(frame: unknown): string {
  return `data: ${JSON.stringify(frame)}\n\n`;
}
