import type { NextFunction, Request, Response } from 'express';
import { AppException } from '../errors/app.exception';
import { PublicErrors } from '../errors/error-codes';
import { refuseBody } from './request-body';

/**
 * Refuses a body from its `Content-Length` header alone, before any of it is read and whatever the
 * content-type: the body parsers skip it and the body guard answers 413 once the route is known, in
 * that route's error shape. Node would otherwise keep the connection open waiting for (or discarding)
 * a body that may never come.
 */
export function rejectOversizedBodies(limitBytes: number) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const declared = Number(request.headers['content-length'] ?? 0);
    if (!(declared > limitBytes)) return next();
    // Whatever answers (the 413, or a 401 or 404 before it), Node then ends the socket instead of reading the body.
    response.setHeader('Connection', 'close');
    const details = `Content-Length ${declared} exceeds the ${limitBytes}-byte body limit`;
    refuseBody(request, new AppException(PublicErrors.PayloadTooLarge, details));
    next();
  };
}
