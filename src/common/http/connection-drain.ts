import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';

/**
 * Graceful drain of an HTTP server without racing keep-alive clients. Once draining, every response
 * whose headers are not yet sent carries `Connection: close`, so Node ends its socket after it and
 * the client's next request opens a new connection (to another instance). Idle kept-alive sockets
 * are left alone: they carry one more request (answered with `Connection: close`) or end at the
 * keep-alive timeout. Attach it before the server listens so it sees every request.
 */
export class ConnectionDrain {
  private readonly unanswered = new Set<ServerResponse>();
  private draining = false;

  constructor(private readonly server: Server) {
    // Prepended so the mark is in place before Express can answer the request.
    server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => this.track(response));
  }

  /**
   * Stops accepting connections and resolves once every connection has ended; at `graceMs` the
   * remaining connections are closed and the result says `forced`.
   */
  drain(graceMs: number): Promise<{ forced: boolean }> {
    this.draining = true;
    for (const response of this.unanswered) closeAfterResponse(response);
    this.unanswered.clear();
    return new Promise((resolve) => {
      let forced = false;
      const deadline = setTimeout(() => {
        forced = true;
        this.server.closeAllConnections();
      }, graceMs);
      // net.Server#close: http.Server#close would also close idle keep-alive sockets a client may be reusing.
      NetServer.prototype.close.call(this.server, () => {
        clearTimeout(deadline);
        resolve({ forced });
      });
    });
  }

  private track(response: ServerResponse): void {
    if (this.draining) return closeAfterResponse(response);
    this.unanswered.add(response);
    response.once('close', () => this.unanswered.delete(response));
  }
}

function closeAfterResponse(response: ServerResponse): void {
  if (!response.headersSent) response.setHeader('Connection', 'close');
}
