import type { Response } from 'express';

/** The fields every `chat.completion.chunk` of one turn shares. */
export interface ChunkIdentity {
  id: string;
  created: number;
  model: string;
}

type ChunkBase = ChunkIdentity & { object: 'chat.completion.chunk' };

/**
 * The server-sent-events side of a streamed turn. Frames leave once per event-loop turn: everything one
 * read of the model's answer produced goes out in one socket write, the headers with the first, and the
 * last frame, `data: [DONE]` and the end of the response in one more.
 */
export class ChatEventStream {
  private base: ChunkBase;
  /** A content frame up to its text: content frames, by far the most, are written without building objects. */
  private contentHead: string;
  private pending = '';
  private scheduled: NodeJS.Immediate | undefined;
  private opened = false;
  private roleSent = false;

  constructor(private readonly response: Response) {
    this.base = { id: '', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: '' };
    this.contentHead = contentHeadOf(this.base);
  }

  /** True once the status is decided: from then on an error can only travel as a frame. */
  get started(): boolean {
    return this.opened;
  }

  /** The completion every later frame names. */
  identify({ id, created, model }: ChunkIdentity): void {
    if (id === this.base.id && created === this.base.created && model === this.base.model) return;
    this.base = { id, object: 'chat.completion.chunk', created, model };
    this.contentHead = contentHeadOf(this.base);
  }

  /** The same frame as `chunk({choices: [{index: 0, delta, finish_reason: null}], type: 'content', delta})`. */
  content(text: string): void {
    if (!this.roleSent) {
      // OpenAI's first delta names the role; the SDK's stream helper refuses a completion without it.
      this.roleSent = true;
      const delta = { role: 'assistant', content: text };
      return this.chunk({ choices: [{ index: 0, delta, finish_reason: null }], type: 'content', delta });
    }
    const quoted = JSON.stringify(text);
    this.push(
      `${this.contentHead}${quoted}},"finish_reason":null}],"type":"content","delta":{"content":${quoted}}}\n\n`,
    );
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
    this.response.end();
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

  private open(): void {
    if (this.opened) return;
    this.opened = true;
    this.response.status(200);
    this.response.setHeader('content-type', 'text/event-stream; charset=utf-8');
    this.response.setHeader('cache-control', 'no-cache');
    this.response.setHeader('x-accel-buffering', 'no');
  }
}

/** `data: {…base,"choices":[{"index":0,"delta":{"content":` — the start of every content frame. */
function contentHeadOf(base: ChunkBase): string {
  return `data: ${JSON.stringify(base).slice(0, -1)},"choices":[{"index":0,"delta":{"content":`;
}

function sseFrame(frame: unknown): string {
  return `data: ${JSON.stringify(frame)}\n\n`;
}
