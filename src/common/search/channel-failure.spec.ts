import { AppException } from '../errors/app.exception';
import { UpstreamErrors } from '../errors/error-codes';
import { readBoundedJson } from './bounded-json';
import { ChannelFailure, channelFailureReason } from './channel-failure';

describe('channelFailureReason', () => {
  it('names timeouts, unreachable endpoints and HTTP errors by their upstream error', () => {
    expect(channelFailureReason(new AppException(UpstreamErrors.Timeout, 'late'))).toBe('timeout');
    expect(channelFailureReason(new AppException(UpstreamErrors.Unreachable, 'refused'))).toBe('unreachable');
    expect(channelFailureReason(new AppException(UpstreamErrors.BadResponse, 'HTTP 500'))).toBe('http_error');
  });

  it('keeps the reason a ChannelFailure carries, and calls anything else malformed', () => {
    expect(channelFailureReason(new ChannelFailure('dimension', 'wrong length'))).toBe('dimension');
    expect(channelFailureReason(new TypeError('x is undefined'))).toBe('malformed');
  });

  it('is a 502 wherever it is not caught', () => {
    expect(new ChannelFailure('count', 'two of three').status).toBe(502);
  });
});

describe('readBoundedJson', () => {
  it('parses a body within the bound', async () => {
    await expect(readBoundedJson(new Response('{"results":[]}'), 100, 'rerank endpoint')).resolves.toEqual({
      results: [],
    });
  });

  it('refuses a body past the bound as too_large', async () => {
    const attempt = readBoundedJson(new Response(`[${'1,'.repeat(100)}1]`), 64, 'rerank endpoint');
    await expect(attempt).rejects.toMatchObject({ reason: 'too_large' });
  });

  it('refuses a body that is not JSON as malformed', async () => {
    await expect(readBoundedJson(new Response('<html>'), 100, 'rerank endpoint')).rejects.toMatchObject({
      reason: 'malformed',
    });
  });
});
