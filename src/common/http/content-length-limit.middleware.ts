import type { NextFunction, Request, Response } from 'express';
import { AppException } from '../errors/app.exception';
import { PublicErrors } from '../errors/error-codes';

/**
 * Answers 413 from the `Content-Length` header alone, before any body is read and whatever the
 * content-type: the body parsers only check the routes' JSON and form bodies, and Node would otherwise
 * keep the connection open waiting for (or discarding) a body that may never come.
 */
export function rejectOversizedBodies(limitBytes: number) {
  return (request: Request, _response: Response, next: NextFunction): void => {
    const declared = Number(request.headers['content-length'] ?? 0);
    if (!(declared > limitBytes)) return next();
    const details = `Content-Length ${declared} exceeds the ${limitBytes}-byte body limit`;
    // Connection: close lets Node end the socket after the 413 instead of reading the announced body.
    next(new AppException(PublicErrors.PayloadTooLarge, details, { headers: { Connection: 'close' } }));
  };
}
