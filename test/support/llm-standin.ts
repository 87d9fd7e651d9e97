import type { ServerResponse } from 'node:http';
import { HttpPeer, RecordedRequest } from './http-peer';

/** What the stand-in model answers to one request. */
export interface ScriptedAnswer {
  content?: string;
  tool_calls?: { id?: string; name: string; arguments: unknown }[];
  /** Streamed answers: wait this long after the first chunk before the rest (disconnect tests). */
  stallMs?: number;
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

  constructor() {
    this.peer = new HttpPeer((recorded, response) => this.answer(recorded, response));
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
    this.closed = 0;
  }

  private async answer(recorded: RecordedRequest, response: ServerResponse): Promise<void> {
    if (recorded.method === 'GET' && recorded.url === '/v1/models') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ object: 'list', data: [{ id: 'standin-model', object: 'model' }] }));
      return;
    }
    const body = JSON.parse(recorded.body) as ChatRequestBody;
    this.bodies.push(body);
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
    const send = (delta: unknown, finishReason: string | null = null, extra: object = {}): void => {
      if (open)
        response.write(
          `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`,
        );
    };
    send({ role: 'assistant', content: '' });
    const pieces = (answer.content ?? '').match(/.{1,4}/gsu) ?? [];
    if (pieces.length > 0) send({ content: pieces.shift() });
    if (answer.stallMs) await new Promise((resolve) => setTimeout(resolve, answer.stallMs));
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
}

/** The content of the tool messages the model was sent, by tool_call_id. */
export function toolMessages(body: ChatRequestBody): Map<string, string> {
  return new Map(body.messages.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id ?? '', m.content ?? '']));
}
