import type { NextFunction, Request, Response } from 'express';
import { AppException } from '../errors/app.exception';
import { PublicErrors } from '../errors/error-codes';

/**
 * Requests HTTP itself calls malformed are answered 400 before anything else reads them:
 * - more than one Host header (RFC 9112 §3.2): Node keeps only the first, so the host check and every
 *   URL built from Host could otherwise disagree with a proxy about it;
 * - a path that is not valid percent-encoding (RFC 3986 §2.1), which no route could decode.
 */
export function rejectMalformedRequests(request: Request, _response: Response, next: NextFunction): void {
  let hosts = 0;
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    if (request.rawHeaders[i].toLowerCase() === 'host') hosts += 1;
  }
  if (hosts > 1) return next(new AppException(PublicErrors.BadRequest, 'a request must carry exactly one Host header'));
  if (!decodablePath(request.path)) {
    return next(new AppException(PublicErrors.BadRequest, 'the request path is not valid percent-encoding'));
  }
  next();
}

function decodablePath(path: string): boolean {
  if (!path.includes('%')) return true;
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}
