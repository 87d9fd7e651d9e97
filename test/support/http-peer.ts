import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type PeerHandler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

/**
 * A small HTTP server started inside a test to play a peer that cannot run here (Hydra, KWeaver,
 * WeKnora, an LLM). It records every request so tests can assert what reached it.
 */
export class HttpPeer {
  readonly requests: RecordedRequest[] = [];
  private server?: Server;

  constructor(private handler: PeerHandler) {}

  setHandler(handler: PeerHandler): void {
    this.handler = handler;
  }

  /** `port` 0 picks a free one; a stopped peer can be started again on its old port (a peer that comes back). */
  async start(port = 0): Promise<string> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const recorded: RecordedRequest = {
          method: request.method ?? 'GET',
          url: request.url ?? '/',
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        this.requests.push(recorded);
        Promise.resolve(this.handler(recorded, response)).catch(() => {
          if (!response.headersSent) response.writeHead(500);
          response.end();
        });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    return this.url;
  }

  get url(): string {
    const address = this.server?.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}`;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** A peer that never answers: holds the request until the caller gives up and closes the connection. */
export function untilCallerHangsUp(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (response.socket?.destroyed ?? true) return resolve();
    response.once('close', () => resolve());
  });
}
