import type { NextFunction, Request, Response } from 'express';
import { AppException } from '../errors/app.exception';
import { PublicErrors } from '../errors/error-codes';
import { rejectOversizedBodies } from './content-length-limit.middleware';
import { bodyRefusal } from './request-body';

function run(headers: Request['headers']) {
  const next = jest.fn();
  const request = { headers } as Request;
  const response = { setHeader: jest.fn() };
  rejectOversizedBodies(1024)(request, response as unknown as Response, next as NextFunction);
  return { next, request, response };
}

describe('rejectOversizedBodies', () => {
  it.each([{}, { 'content-length': '0' }, { 'content-length': '1024' }])('passes %j on untouched', (headers) => {
    const { next, request, response } = run(headers);
    expect(next.mock.calls).toEqual([[]]);
    expect(bodyRefusal(request)).toBeUndefined();
    expect(response.setHeader).not.toHaveBeenCalled();
  });

  it('defers a Content-Length over the limit as PayloadTooLarge to the body guard, closing the connection', () => {
    const { next, request, response } = run({ 'content-length': '1025', 'content-type': 'application/octet-stream' });
    // Routing goes on, so the matched route's error shape answers; the 413 waits in the request.
    expect(next.mock.calls).toEqual([[]]);
    expect(response.setHeader).toHaveBeenCalledWith('Connection', 'close');
    const refusal = bodyRefusal(request);
    expect(refusal).toBeInstanceOf(AppException);
    expect(refusal).toMatchObject({
      definition: PublicErrors.PayloadTooLarge,
      details: 'Content-Length 1025 exceeds the 1024-byte body limit',
    });
  });
});
