import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChannelFailure } from './channel-failure';
import { EmbeddingClient } from './embedding-client';

/** An OpenAI-compatible embeddings endpoint that answers each batch with `items(input)`. */
async function endpoint(items: (input: string[]) => unknown[]): Promise<{ server: Server; client: EmbeddingClient }> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const { input } = JSON.parse(body) as { input: string[] };
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ data: items(input) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, client: new EmbeddingClient({ url: `http://127.0.0.1:${port}`, model: 'm', timeoutMs: 5000 }) };
}

/** A text's vector: its length, so a vector paired with the wrong text shows. */
const vector = (text: string): number[] => [text.length, 1];

describe('EmbeddingClient', () => {
  const texts = ['a', 'bb', 'ccc'];

  it.each([
    ['in order', (input: string[]) => input.map((text, index) => ({ index, embedding: vector(text) }))],
    ['shuffled', (input: string[]) => input.map((text, index) => ({ index, embedding: vector(text) })).reverse()],
    ['without indexes', (input: string[]) => input.map((text) => ({ embedding: vector(text) }))],
  ])('pairs each text with its vector when the answer comes %s', async (_label, items) => {
    const { server, client } = await endpoint(items);
    try {
      const vectors = await client.embed(texts);
      expect(vectors.map((values) => values[0])).toEqual([1, 2, 3]);
    } finally {
      server.close();
    }
  });

  it.each([
    ['an index twice', [0, 0, 1]],
    ['an index out of range', [0, 1, 3]],
    ['a negative index', [-1, 0, 1]],
    ['a fractional index', [0, 0.5, 1]],
    ['an index on some items only', [0, undefined, 2]],
  ])('refuses an answer with %s', async (_label, indexes) => {
    const { server, client } = await endpoint((input) =>
      input.map((text, i) => ({ index: indexes[i], embedding: vector(text) })),
    );
    try {
      await expect(client.embed(texts)).rejects.toThrow(ChannelFailure);
      await expect(client.embed(texts)).rejects.toMatchObject({ reason: 'count' });
    } finally {
      server.close();
    }
  });
});
