import { Logger } from '@nestjs/common';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { AppException } from '../errors/app.exception';
import { classifyFetchFailure, fetchFailureException } from './fetch-failure';
import { fetchWithin } from './outbound-fetch';

/** What the service's outbound fetch throws for `url` (its deadline `timeoutMs`). */
const outbound = (url: string, timeoutMs = 5000): Promise<string> =>
  fetchWithin(url, { redirect: 'error' }, timeoutMs, (response) => response.text());

/** What node's fetch throws for a network failure: `TypeError('fetch failed')` whose cause carries the code. */
const fetchFailed = (code: string, message = `${code} detail`): TypeError =>
  new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) });

/** A TCP server that handles each socket with `onSocket`, on a free loopback port. */
async function tcpServer(onSocket: (socket: net.Socket) => void): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => {
      sockets.forEach((socket) => socket.destroy());
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function thrownBy(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (error) {
    return error;
  }
  throw new Error('the call did not throw');
}

describe('classifyFetchFailure', () => {
  it.each([
    ['ECONNREFUSED', 'refused', 'connection refused (ECONNREFUSED)'],
    ['ECONNRESET', 'reset', 'connection reset (ECONNRESET)'],
    ['UND_ERR_SOCKET', 'reset', 'connection reset (UND_ERR_SOCKET)'],
    ['ENOTFOUND', 'dns', 'host name not resolved (ENOTFOUND)'],
    ['EAI_AGAIN', 'dns', 'host name not resolved (EAI_AGAIN)'],
    ['UND_ERR_CONNECT_TIMEOUT', 'connect-timeout', 'connect timed out (UND_ERR_CONNECT_TIMEOUT)'],
    ['UND_ERR_HEADERS_TIMEOUT', 'response-timeout', 'response timed out (UND_ERR_HEADERS_TIMEOUT)'],
    ['UND_ERR_BODY_TIMEOUT', 'response-timeout', 'response timed out (UND_ERR_BODY_TIMEOUT)'],
    ['CERT_HAS_EXPIRED', 'network', 'network error (CERT_HAS_EXPIRED)'],
  ])('classifies fetch failed caused by %s as %s', (code, kind, reason) => {
    expect(classifyFetchFailure(fetchFailed(code))).toEqual({ kind, reason });
  });

  it.each(['TimeoutError', 'AbortError'])('classifies a DOMException %s as the deadline', (name) => {
    expect(classifyFetchFailure(new DOMException('aborted', name))).toEqual({
      kind: 'deadline',
      reason: 'deadline exceeded',
    });
  });

  it('finds the code a level deeper and never quotes the message', () => {
    const inner = Object.assign(new Error('getaddrinfo ENOTFOUND secret-host.example'), {
      code: 'ENOTFOUND',
    });
    const error = new TypeError('fetch failed', { cause: new Error('wrapped', { cause: inner }) });
    const failure = classifyFetchFailure(error);
    expect(failure).toEqual({ kind: 'dns', reason: 'host name not resolved (ENOTFOUND)' });
  });

  it('calls a failure without a code a network error named by its type', () => {
    expect(classifyFetchFailure(new TypeError('fetch failed', { cause: new Error('bad port') }))).toEqual({
      kind: 'network',
      reason: 'network error (TypeError)',
    });
    expect(classifyFetchFailure('not an error')).toEqual({
      kind: 'network',
      reason: 'network error',
    });
  });

  it('classifies what the outbound fetch throws for a closed port, a dropped connection and a missed deadline', async () => {
    const closed = await tcpServer(() => undefined);
    await closed.close();
    expect(classifyFetchFailure(await thrownBy(outbound(closed.url))).kind).toBe('refused');

    const dropping = await tcpServer((socket) => socket.destroy());
    expect(classifyFetchFailure(await thrownBy(outbound(dropping.url))).kind).toBe('reset');
    await dropping.close();

    const silent = await tcpServer(() => undefined);
    const late = await thrownBy(outbound(silent.url, 50));
    expect(late).toBeInstanceOf(DOMException);
    expect(classifyFetchFailure(late).kind).toBe('deadline');
    await silent.close();
  });
});

describe('fetchFailureException', () => {
  const options = { subject: 'kweaver-bkn', timeoutMs: 1500 };

  it('maps the deadline to 504 UpstreamTimeout with the caller subject and deadline', () => {
    const error = fetchFailureException(new DOMException('timed out', 'TimeoutError'), options);
    expect(error).toBeInstanceOf(AppException);
    expect(error.definition.code).toBe('agentRetrieval.GatewayTimeout.UpstreamTimeout');
    expect(error.status).toBe(504);
    expect(error.details).toBe('kweaver-bkn did not answer within 1500 ms');
  });

  it.each(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT'])(
    'maps fetch failed caused by %s to 502 UpstreamUnreachable',
    (code) => {
      const error = fetchFailureException(fetchFailed(code), options);
      expect(error.definition.code).toBe('agentRetrieval.BadGateway.UpstreamUnreachable');
      expect(error.status).toBe(502);
      expect(error.details).toBe('kweaver-bkn is unreachable');
    },
  );

  it('logs an unreachable upstream with the safe reason, and a missed deadline not at all', () => {
    const logger = new Logger('test');
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    fetchFailureException(fetchFailed('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.7:443'), {
      ...options,
      logger,
    });
    fetchFailureException(new DOMException('timed out', 'TimeoutError'), { ...options, logger });
    expect(warn.mock.calls).toEqual([['kweaver-bkn unreachable: connection refused (ECONNREFUSED)']]);
  });

  it('keeps a network failure as the cause', () => {
    const thrown = fetchFailed('ECONNRESET');
    expect(fetchFailureException(thrown, options).cause).toBe(thrown);
  });

  it('keeps neither the credentials nor the error quoting them when fetch rejects a URL with credentials', async () => {
    const logger = new Logger('test');
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const thrown = await thrownBy(outbound('http://user:s3cret@127.0.0.1:1/path?key=k3y'));
    expect(String((thrown as Error).message)).toContain('s3cret');
    const error = fetchFailureException(thrown, { ...options, logger });
    expect(error.status).toBe(502);
    expect(error.cause).toBeUndefined();
    const texts = [error.message, String(error.details), ...warn.mock.calls.flat().map(String)];
    expect(texts.filter((text) => /s3cret|k3y|user/.test(text))).toEqual([]);
  });
});
