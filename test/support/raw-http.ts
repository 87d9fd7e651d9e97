import { Agent, IncomingHttpHeaders, request } from 'node:http';
import { connect } from 'node:net';

export interface RawRequest {
  method: string;
  /** Path and query exactly as sent: no normalisation, no encoding. */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  ms: number;
}

/** The request was still unanswered at the deadline (a hang), or its connection failed before an answer. */
export class NoAnswer extends Error {
  constructor(
    readonly reason: 'timeout' | 'connection',
    message: string,
  ) {
    super(message);
  }
}

/**
 * An HTTP/1.1 client for hostile requests: any bytes as the body, the path as given (no URL parsing, so
 * `../` and `%2e` reach the server), keep-alive connections, and a deadline per request.
 */
export class RawHttpClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 16 });
  private readonly host: string;
  private readonly port: number;

  constructor(baseUrl: string) {
    const url = new URL(baseUrl);
    this.host = url.hostname.replace(/^\[|\]$/g, '');
    this.port = Number(url.port);
  }

  send(raw: RawRequest, deadlineMs: number): Promise<RawResponse> {
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const outgoing = request(
        {
          host: this.host,
          port: this.port,
          method: raw.method,
          path: raw.path,
          agent: this.agent,
          headers: { ...raw.headers, ...(raw.body ? { 'content-length': String(raw.body.length) } : {}) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              text: Buffer.concat(chunks).toString('utf8'),
              ms: performance.now() - started,
            }),
          );
          response.on('error', (error) => reject(new NoAnswer('connection', error.message)));
        },
      );
      outgoing.setTimeout(deadlineMs, () => {
        outgoing.destroy();
        reject(new NoAnswer('timeout', `no answer within ${deadlineMs} ms`));
      });
      // A 413 may arrive (and the socket close) while the body is still being written: the answer decides.
      outgoing.on('error', (error) => reject(new NoAnswer('connection', error.message)));
      outgoing.end(raw.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/**
 * One raw HTTP/1.1 exchange over a socket: for heads no HTTP client will send (CR/LF inside a header value).
 * `keepOpen` leaves the socket open after writing (a client that stalls) instead of half-closing it.
 */
export function rawExchange(baseUrl: string, head: string, deadlineMs = 5000, keepOpen = false): Promise<string> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => (keepOpen ? socket.write(head) : socket.end(head)));
    let answer = '';
    socket.setTimeout(deadlineMs, () => socket.destroy(new Error(`no answer within ${deadlineMs} ms`)));
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}
