import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Language } from '../../config/i18n.config';
import { publicErrorForStatus } from '../errors/error-codes';
import { ErrorPresenter } from '../errors/error-presenter';

/** Node's parser codes with the status Node itself would answer, and what the error body says. */
const REFUSALS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'the request line and headers exceed the server limit'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'chunk extensions exceed the server limit'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'the request was not received in time'],
};

type ClientSocket = Duplex & { _httpMessage?: { headersSent?: boolean } | null };

/**
 * Requests Node's HTTP parser refuses (headers over its limit, a malformed request line, a request that
 * took too long) never reach Express, and Node answers them with a bare status line. They get the
 * documented error body and an X-Request-Id like every other error (SPEC §4), in the default language:
 * no header of the request could be trusted.
 */
export function answerClientErrors(server: Server, presenter: ErrorPresenter, language: Language): void {
  const logger = new Logger('HttpServer');
  server.on('clientError', (error: Error & { code?: string }, socket: ClientSocket) => {
    // As Node does: never write into a response already under way, or to a peer that is gone.
    if (error.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, details] = REFUSALS[error.code ?? ''] ?? [400, 'the request is not valid HTTP/1.1'];
    const requestId = randomUUID();
    const body = JSON.stringify(presenter.body(publicErrorForStatus(status), details, language));
    logger.warn(`refused before routing: ${status} ${error.code ?? 'unknown'} (request id ${requestId})`);
    const head = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-Id: ${requestId}`,
      'Connection: close',
    ];
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
  });
}
