import type { NextFunction, Request, Response } from 'express';
import { AppException } from '../errors/app.exception';
import { PublicErrors } from '../errors/error-codes';
import { rejectOversizedBodies } from './content-length-limit.middleware';

function run(headers: Request['headers']): jest.Mock {
  const next = jest.fn();
  rejectOversizedBodies(1024)({ headers } as Request, {} as Response, next as NextFunction);
  return next;
}

describe('rejectOversizedBodies', () => {
  it.each([{}, { 'content-length': '0' }, { 'content-length': '1024' }])('passes %j on untouched', (headers) => {
    expect(run(headers).mock.calls).toEqual([[]]);
  });

  it('hands a Content-Length over the limit to the filter as PayloadTooLarge with Connection: close', () => {
    const [[error]] = run({ 'content-length': '1025', 'content-type': 'application/octet-stream' }).mock.calls;
    expect(error).toBeInstanceOf(AppException);
    expect(error).toMatchObject({
      definition: PublicErrors.PayloadTooLarge,
      details: 'Content-Length 1025 exceeds the 1024-byte body limit',
      headers: { Connection: 'close' },
    });
  });
});
