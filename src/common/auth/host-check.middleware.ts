import type { NextFunction, Request, Response } from 'express';
import { AppException } from '../errors/app.exception';
import { AuthErrors } from '../errors/error-codes';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function hostname(value: string): string {
  const text = value.trim().toLowerCase();
  if (text.startsWith('[')) return text.slice(0, text.indexOf(']') + 1);
  return text.split(':')[0];
}

function originHost(origin: string): string | undefined {
  try {
    return hostname(new URL(origin).host);
  } catch {
    return undefined;
  }
}

/** True when Host and (if present) Origin name this machine: DNS-rebinding protection (SPEC §5). */
export function isLocalRequest(request: Pick<Request, 'headers'>): boolean {
  const host = request.headers.host;
  if (!host || !LOCAL_HOSTS.has(hostname(host))) return false;
  const origin = request.headers.origin;
  if (origin === undefined || origin === 'null') return origin === undefined;
  const fromOrigin = originHost(origin);
  return fromOrigin !== undefined && LOCAL_HOSTS.has(fromOrigin);
}

/**
 * DNS-rebinding protection for an unauthenticated loopback bind (SPEC §5): a foreign Host or Origin
 * becomes a 403 handed to the global exception filter, like every other error.
 */
export function rejectForeignHosts() {
  return (request: Request, _response: Response, next: NextFunction): void => {
    if (isLocalRequest(request)) return next();
    next(new AppException(AuthErrors.HostNotAllowed, 'host or origin is not a loopback name'));
  };
}
