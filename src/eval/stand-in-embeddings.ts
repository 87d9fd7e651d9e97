import { createHash } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

const DIMENSIONS = 256;
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * A deterministic embedding for the eval, not a model: the text's character 1-, 2- and 3-grams (after
 * lower-casing) hashed into 256 buckets and L2-normalised. It finds texts that share character runs,
 * typos and word order aside, and knows nothing of meaning: numbers it gives only show that hybrid
 * search works end to end; what hybrid search is worth needs a real embedding model.
 */
export function standInVector(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  const chars = [...text.toLowerCase().replace(/\s+/g, ' ')];
  for (let n = 1; n <= 3; n += 1) {
    for (let i = 0; i + n <= chars.length; i += 1) {
      const gram = chars.slice(i, i + n).join('');
      if (gram.trim() === '') continue;
      const digest = createHash('md5').update(gram).digest();
      vector[digest.readUInt16LE(0) % DIMENSIONS] += n;
    }
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

/** The stand-in behind an OpenAI-compatible `POST /v1/embeddings` on 127.0.0.1; `url` is its base URL. */
export class StandInEmbeddingServer {
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      request.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      });
      request.on('end', () => {
        try {
          if (request.url !== '/v1/embeddings' || size > MAX_BODY_BYTES) throw new Error('not an embeddings call');
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { input: string[] };
          const data = body.input.map((text, index) => ({
            object: 'embedding',
            index,
            embedding: standInVector(text),
          }));
          // One connection per call: a kept-alive socket the server closes while idle resets the next call.
          response.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
          response.end(JSON.stringify({ object: 'list', data }));
        } catch {
          response.writeHead(400);
          response.end();
        }
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}
