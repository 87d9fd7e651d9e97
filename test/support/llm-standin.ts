import type { ServerResponse } from 'node:http';
import { HttpPeer, RecordedRequest } from './http-peer';

/** What the stand-in model answers to one request. */
export interface ScriptedAnswer {
  content?: string;
  tool_calls?: { id?: string; name: string; arguments: unknown }[];
  /** Streamed answers: wait this long after the first chunk before the rest (disconnect tests). */
  stallMs?: number;
  /** Streamed answers: these deltas of the first choice, as given, in place of content and tool_calls. */
  deltas?: unknown[];
  /** Streamed answers: these SSE events' text, written as given after the first chunk (malformed frames). */
  rawEvents?: string[];
  /**
   * Streamed answers: content written in pieces of `pieceBytes` for as long as the caller takes them (waiting
   * for drain when it does not), up to `totalBytes`; `flooded` counts the bytes written.
   */
  flood?: { pieceBytes: number; totalBytes: number };
}

export interface ChatRequestBody {
  model: string;
  messages: { role: string; content: string | null; tool_call_id?: string; tool_calls?: unknown[] }[];
  tools?: { function: { name: string } }[];
  tool_choice?: unknown;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  /** Any other field, as the service sent it (forwarded or passed-through parameters). */
  [field: string]: unknown;
}

export type Script = (body: ChatRequestBody, turn: number) => ScriptedAnswer;

/**
 * An OpenAI-compatible model played inside the test: `GET /v1/models` and `POST /v1/chat/completions`
 * (JSON or SSE, as asked), answering from a script that sees each request; every request is recorded,
 * and `closed` counts requests whose connection the caller closed before the answer ended.
 */
export class LlmStandin {
  readonly peer: HttpPeer;
  private script: Script = () => ({ content: 'hello' });
  bodies: ChatRequestBody[] = [];
  closed = 0;
  /** Bytes of flood content written so far (see ScriptedAnswer.flood). */
  flooded = 0;
  /** Requests whose answer the stand-in has finished (written, or given up on a closed connection). */
  answered = 0;
  /** The raw text of every request body, as it arrived. */
  rawBodies: string[] = [];

  constructor() {
    this.peer = new HttpPeer(async (recorded, response) => {
      try {
        await this.answer(recorded, response);
      } finally {
        this.answered += 1;
      }
    });
  }

  start(): Promise<string> {
    return this.peer.start();
  }

  stop(): Promise<void> {
    return this.peer.stop();
  }

  use(script: Script): void {
    this.script = script;
    this.bodies = [];
    this.rawBodies = [];
    this.closed = 0;
    this.flooded = 0;
    this.answered = 0;
  }

  private async answer(recorded: RecordedRequest, response: ServerResponse): Promise<void> {
    if (recorded.method === 'GET' && recorded.url === '/v1/models') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ object: 'list', data: [{ id: 'standin-model', object: 'model' }] }));
      return;
    }
    const body = JSON.parse(recorded.body) as ChatRequestBody;
    this.bodies.push(body);
    this.rawBodies.push(recorded.body);
    const answer = this.script(body, this.bodies.length);
    const calls = (answer.tool_calls ?? []).map((call, index) => ({
      id: call.id ?? `call_${this.bodies.length}_${index}`,
      type: 'function',
      function: {
        name: call.name,
        arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
      },
    }));
    const finish = calls.length > 0 ? 'tool_calls' : 'stop';
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
    const base = { id: `standin-${this.bodies.length}`, created: 1, model: body.model };
    if (!body.stream) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          ...base,
          object: 'chat.completion',
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant',
                content: answer.content ?? null,
                ...(calls.length ? { tool_calls: calls } : {}),
              },
              finish_reason: finish,
            },
          ],
          usage,
        }),
      );
      return;
    }
    let open = true;
    response.on('close', () => {
      if (!response.writableFinished) this.closed += 1;
      open = false;
    });
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (delta: unknown, finishReason: string | null = null, extra: object = {}): boolean =>
      open &&
      response.write(
        `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`,
      );
    send({ role: 'assistant', content: '' });
    if (answer.deltas || answer.rawEvents || answer.flood) {
      for (const delta of answer.deltas ?? []) send(delta);
      for (const event of answer.rawEvents ?? []) if (open) response.write(`data: ${event}\n\n`);
      if (answer.flood) await this.flood(response, answer.flood, send, () => open);
      send({}, 'stop');
      if (open) response.end('data: [DONE]\n\n');
      return;
    }
    const pieces = (answer.content ?? '').match(/.{1,4}/gsu) ?? [];
    if (pieces.length > 0) send({ content: pieces.shift() });
    // A slow model: the stall ends early when the caller hangs up, as a real server stops writing.
    if (answer.stallMs) await stall(answer.stallMs, response);
    for (const piece of pieces) send({ content: piece });
    calls.forEach((call, index) => {
      send({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }],
      });
      const args = call.function.arguments;
      const half = Math.floor(args.length / 2);
      send({ tool_calls: [{ index, function: { arguments: args.slice(0, half) } }] });
      send({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] });
    });
    send({}, finish);
    if (open)
      response.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage })}\n\n`);
    if (open) response.end('data: [DONE]\n\n');
  }

  /** Content pieces for as long as the reader takes them: the socket's own flow control sets the pace. */
  private async flood(
    response: ServerResponse,
    flood: { pieceBytes: number; totalBytes: number },
    send: (delta: unknown) => boolean,
    open: () => boolean,
  ): Promise<void> {
    const piece = 'x'.repeat(flood.pieceBytes);
    while (open() && this.flooded < flood.totalBytes) {
      const more = send({ content: piece });
      this.flooded += flood.pieceBytes;
      if (!more && open()) {
        // Whichever comes first; the other listener goes too, or every wait would leave one behind.
        await new Promise<void>((resolve) => {
          const done = (): void => {
            response.off('drain', done);
            response.off('close', done);
            resolve();
          };
          response.once('drain', done);
          response.once('close', done);
        });
      }
    }
  }
}

function stall(ms: number, response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    response.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** The content of the tool messages the model was sent, by tool_call_id. */
export function toolMessages(body: ChatRequestBody): Map<string, string> {
  return new Map(body.messages.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id ?? '', m.content ?? '']));
}
