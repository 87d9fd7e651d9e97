import type { Response } from 'express';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ChatEventStream } from './chat-event-stream';

/** The parts of an Express response the stream uses, recording what reaches the socket. */
function fakeResponse() {
  const writes: string[] = [];
  const headers: Record<string, string> = {};
  const response = {
    statusCode: 0,
    writableEnded: false,
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
  };
  return { response, writes, headers };
}

const framesOf = (text: string): unknown[] =>
  text
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: ') && frame !== 'data: [DONE]')
    .map((frame) => JSON.parse(frame.slice('data: '.length)) as unknown);

describe('ChatEventStream', () => {
  it('writes content frames equal to the chunks they stand for, naming the completion and, first, the role', async () => {
    const { response, writes, headers } = fakeResponse();
    const stream = new ChatEventStream(response as unknown as Response);
    stream.identify({ id: 'chatcmpl-1', created: 1700000000, model: 'qwen "2.5"' });
    const text = 'line\n"quoted" \u2028 世界';
    stream.content('first');
    stream.content(text);
    await nextTurn();

    const frame = (delta: object) => ({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1700000000,
      model: 'qwen "2.5"',
      choices: [{ index: 0, delta, finish_reason: null }],
      type: 'content',
      delta,
    });
    // The first names the role, as OpenAI's first delta does.
    expect(framesOf(writes.join(''))).toEqual([
      frame({ role: 'assistant', content: 'first' }),
      frame({ content: text }),
    ]);
    expect(response.statusCode).toBe(200);
    expect(headers['content-type']).toBe('text/event-stream; charset=utf-8');
  });

  it('batches the frames of one turn into one write and ends with the last frame and [DONE] in another', async () => {
    const { response, writes } = fakeResponse();
    const stream = new ChatEventStream(response as unknown as Response);
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
    const stream = new ChatEventStream(response as unknown as Response);
    stream.content('a');
    stream.abandon();
    await nextTurn();

    expect(writes).toEqual([]);
    expect(response.writableEnded).toBe(true);
  });
});
