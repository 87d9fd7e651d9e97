import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  bodyRefusal,
  deferBodyParseErrors,
  hasMediaType,
  parsedUnlessRefused,
  refuseBody,
  unparsableBody,
} from './request-body';

function deferred(error: unknown): { request: Request; next: jest.Mock } {
  const request = { body: { partial: true } } as Request;
  const next = jest.fn();
  deferBodyParseErrors(error, request, {} as Response, next as NextFunction);
  return { request, next };
}

describe('deferBodyParseErrors', () => {
  it('remembers a body that does not parse for the matched route to report', () => {
    const { request, next } = deferred({ type: 'entity.parse.failed', body: '{"a":' });
    expect(next.mock.calls).toEqual([[]]);
    expect(unparsableBody(request)).toBe('request body is not valid JSON');
    expect(bodyRefusal(request)).toBeUndefined();
    expect(request.body).toBeUndefined();
  });

  it.each(['entity.too.large', 'charset.unsupported'])('defers the parser error %s to the body guard', (type) => {
    const error = { type, status: 413 };
    const { request, next } = deferred(error);
    expect(next.mock.calls).toEqual([[]]);
    expect(bodyRefusal(request)).toBe(error);
    expect(request.body).toBeUndefined();
  });

  it('passes an error raised before the parsers on at once', () => {
    const error = new Error('malformed');
    const { request, next } = deferred(error);
    expect(next.mock.calls).toEqual([[error]]);
    expect(bodyRefusal(request)).toBeUndefined();
  });
});

describe('parsedUnlessRefused (the body parsers’ `type` option)', () => {
  let server: Server;
  let port: number;
  const seen: { body: unknown; complete: boolean }[] = [];

  beforeAll(async () => {
    const app = express();
    app.use((request, _response, next) => {
      if (request.headers['x-refuse'] === 'yes') refuseBody(request, new Error('refused'));
      next();
    });
    app.use(express.json({ type: parsedUnlessRefused('application/json') }));
    app.use((request, response) => {
      seen.push({ body: request.body as unknown, complete: request.complete });
      response.setHeader('Connection', 'close');
      response.end('done');
    });
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Sends the head and only part of the announced body, so a parser that reads it would wait for the rest. */
  function send(refuse: boolean, body: string, announced: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest(
        {
          port,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': announced,
            'x-refuse': refuse ? 'yes' : 'no',
          },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve(text));
        },
      );
      outgoing.on('error', reject);
      outgoing.write(body);
    });
  }

  it('parses an ordinary JSON body', async () => {
    const body = '{"a":1}';
    await send(false, body, body.length);
    expect(seen.at(-1)).toEqual({ body: { a: 1 }, complete: true });
  });

  it('leaves a refused body unread: the answer comes while most of it was never sent', async () => {
    expect(await send(true, '{"a":', 1_000_000)).toBe('done');
    expect(seen.at(-1)).toEqual({ body: undefined, complete: false });
  });
});

describe('hasMediaType', () => {
  /** An Express request with a body of `contentType`, as the body parsers see it. */
  function requestWith(contentType: string | undefined): Request {
    const request = Object.create(express.request) as Request;
    const headers: Record<string, string> = { 'content-length': '2' };
    if (contentType !== undefined) headers['content-type'] = contentType;
    Object.assign(request, { headers });
    return request;
  }

  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON',
    'application/vnd.api+json',
    'application/x-www-form-urlencoded',
    'text/plain',
    'application/jsonx',
    'json',
    '',
    undefined,
  ])('decides %p as request.is does', (contentType) => {
    for (const mediaType of ['application/json', 'application/x-www-form-urlencoded']) {
      const request = requestWith(contentType);
      expect(hasMediaType(request, mediaType)).toBe(Boolean(request.is(mediaType)));
    }
  });
});
