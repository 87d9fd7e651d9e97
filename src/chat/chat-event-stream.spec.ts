import type { Response } from 'express';
import { EventEmitter } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ChatEventStream, EventFields } from './chat-event-stream';

/** The parts of an Express response the stream uses, recording what reaches the socket. */
function fakeResponse() {
  const writes: string[] = [];
  const headers: Record<string, string> = {};
  const response = Object.assign(new EventEmitter(), {
    statusCode: 0,
    writableEnded: false,
    writableNeedDrain: false,
    destroyed: false,
    status(code: number) {
      this.statusCode = code;
      return this;
    },
    setHeader(name: string, value: string) {
      headers[name] = value;
    },
    write(text: string) {
      writes.push(text);
      return true;
    },
    end(text?: string) {
      if (text !== undefined) writes.push(text);
      this.writableEnded = true;
    },
  });
  return { response, writes, headers };
}

function streamOn(response: unknown, fields: EventFields = 'seed', onIdle = () => undefined): ChatEventStream {
  return new ChatEventStream(response as Response, { fields, idleMs: 50, onIdle });
}

const framesOf = (text: string): unknown[] =>
  text
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: ') && frame !== 'data: [DONE]')
    .map((frame) => JSON.parse(frame.slice('data: '.length)) as unknown);

describe('ChatEventStream', () => {
  it('writes content frames equal to the chunks they stand for, the first with the role, with the seed fields', async () => {
    const { response, writes, headers } = fakeResponse();
    const stream = streamOn(response);
    stream.identify({ id: 'chatcmpl-1', created: 1700000000, model: 'qwen "2.5"' });
    const text = 'line\n"quoted" \u2028 世界';
    stream.content(text);
    stream.content(text);
    await nextTurn();

    const delta = { content: text };
    const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1700000000, model: 'qwen "2.5"' };
    expect(framesOf(writes.join(''))).toEqual([
      {
        ...base,
        choices: [{ index: 0, delta: { role: 'assistant', ...delta }, finish_reason: null }],
        type: 'content',
        delta,
      },
      { ...base, choices: [{ index: 0, delta, finish_reason: null }], type: 'content', delta },
    ]);
    expect(response.statusCode).toBe(200);
    expect(headers['content-type']).toBe('text/event-stream; charset=utf-8');
  });

  it('sends the text once per frame with OpenAI fields, and the role on the first frame with a choice', async () => {
    const { response, writes } = fakeResponse();
    const stream = streamOn(response, 'openai');
    stream.identify({ id: 'chatcmpl-2', created: 1, model: 'm' });
    stream.chunk({ choices: [], type: 'tool_call', delta: { tool_calls: [] } });
    stream.content('a');
    stream.content('b');
    stream.finish(stream.chunkOf(stream.choiceFrame({}, 'stop')));

    const frames = framesOf(writes.join('')) as { choices: { delta: unknown }[]; delta?: unknown }[];
    expect(frames.map((frame) => frame.choices[0]?.delta)).toEqual([
      undefined,
      { role: 'assistant', content: 'a' },
      { content: 'b' },
      {},
    ]);
    expect(frames.slice(1).every((frame) => frame.delta === undefined)).toBe(true);
    expect(writes.join('').split('"b"')).toHaveLength(2);
  });

  it('leaves a few pending frames for the end of the event-loop turn when asked if the client is ready', async () => {
    const { response, writes } = fakeResponse();
    const stream = streamOn(response, 'openai');
    stream.content('a');
    expect(stream.ready()).toBeUndefined();
    expect(writes).toHaveLength(0);
    stream.content('b');
    stream.finish(stream.chunkOf(stream.choiceFrame({}, 'stop')));
    await nextTurn();

    expect(writes).toHaveLength(1);
    expect(framesOf(writes[0])).toHaveLength(3);
  });

  it('writes 16 KiB or more of pending frames when asked if the client is ready, and waits for drain when it is not', async () => {
    const { response, writes } = fakeResponse();
    const stream = streamOn(response, 'openai');
    const piece = 'x'.repeat(16 * 1024);
    stream.content(piece);
    expect(stream.ready()).toBeUndefined();
    expect(writes).toHaveLength(1);

    response.writableNeedDrain = true;
    stream.content(piece);
    let drained = false;
    const waiting = stream.ready()!.then(() => (drained = true));
    expect(writes).toHaveLength(2);
    await nextTurn();
    expect(drained).toBe(false);
    response.emit('drain');
    await waiting;
    expect(drained).toBe(true);
  });

  it('cuts off a client that reads nothing for the idle time', async () => {
    const { response } = fakeResponse();
    const onIdle = jest.fn();
    const stream = streamOn(response, 'openai', onIdle);
    response.writableNeedDrain = true;
    stream.content('a');
    await stream.ready();
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('batches the frames of one turn into one write and ends with the last frame and [DONE] in another', async () => {
    const { response, writes } = fakeResponse();
    const stream = streamOn(response);
    stream.content('a');
    stream.chunk({ choices: [], type: 'tool_call', delta: { tool_calls: [] } });
    await nextTurn();
    stream.content('b');
    stream.finish(stream.chunkOf({ choices: [], type: 'done' }));
    await nextTurn();

    expect(writes).toHaveLength(2);
    expect(framesOf(writes[0]).map((frame) => (frame as { type: string }).type)).toEqual(['content', 'tool_call']);
    expect(framesOf(writes[1]).map((frame) => (frame as { type: string }).type)).toEqual(['content', 'done']);
    expect(writes[1].endsWith('data: [DONE]\n\n')).toBe(true);
    expect(response.writableEnded).toBe(true);
  });

  it('writes nothing more once abandoned', async () => {
    const { response, writes } = fakeResponse();
    const stream = streamOn(response);
    stream.content('a');
    stream.abandon();
    await nextTurn();

    expect(writes).toEqual([]);
    expect(response.writableEnded).toBe(true);
  });
});
