import type { NextFunction, Request, Response } from 'express';
import { AppException } from '../errors/app.exception';
import { PublicErrors } from '../errors/error-codes';

/**
 * RFC 9112 §3.2: a request with more than one Host header is answered 400. Node keeps only the first,
 * so the host check and every URL built from Host could otherwise disagree with a proxy about it.
 */
export function rejectRepeatedHost(request: Request, _response: Response, next: NextFunction): void {
  let hosts = 0;
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    if (request.rawHeaders[i].toLowerCase() === 'host') hosts += 1;
  }
  if (hosts > 1) return next(new AppException(PublicErrors.BadRequest, 'a request must carry exactly one Host header'));
  next();
}
