import type { IncomingMessage, Server } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { maskApiKeys } from '../auth/api-keys/api-key-format';
import { AppException } from '../errors/app.exception';
import { PublicErrors } from '../errors/error-codes';
import { PRIVATE_PREFIX } from './route-prefixes';
import type { RouteAccess } from './route-access';

/**
 * Which of the app's HTTP listeners a request came in on. With PRIVATE_PORT the private prefix has its
 * own listener (SPEC §12) so that a NetworkPolicy can admit only the platform to it.
 */
export type Listener = 'public' | 'private';

const LISTENER = Symbol('agentRetrieval.listener');

type TaggedRequest = IncomingMessage & { [LISTENER]?: Listener };

/** Marks every request a server receives as arriving on `listener`; attach before the server listens. */
export function tagRequests(server: Server, listener: Listener): void {
  server.prependListener('request', (request: TaggedRequest) => {
    request[LISTENER] = listener;
  });
}

/** Untagged requests count as public: a private route is never served by accident (fail closed). */
export function requestListener(request: IncomingMessage): Listener {
  return (request as TaggedRequest)[LISTENER] ?? 'public';
}

/**
 * Whether a listener serves routes of an access class. One listener serves everything; with two, the
 * public one never serves private routes and the private one serves only private routes and probes.
 */
export function listenerServes(listener: Listener, access: RouteAccess, separate: boolean): boolean {
  if (!separate || access === 'open') return true;
  return listener === 'private' ? access === 'private' : access !== 'private';
}

export function isPrivatePath(path: string): boolean {
  return path === PRIVATE_PREFIX || path.startsWith(`${PRIVATE_PREFIX}/`);
}

/** The 404 an unknown route gets, so a route this listener does not serve looks exactly like none. */
export function notServedHere(request: Pick<Request, 'method' | 'path'>): AppException {
  return new AppException(
    PublicErrors.NotFound,
    `no route for ${request.method} ${maskApiKeys(request.path.slice(0, 200))}`,
  );
}

/**
 * On the public listener, when the private prefix has its own: every path under it is 404 before body
 * parsing or routing, so not even a 405 tells a caller which private routes exist. The guard enforces the
 * same by the matched route's access class; this covers the paths no route matches.
 */
export function hidePrivatePrefix() {
  return (request: Request, _response: Response, next: NextFunction): void => {
    if (requestListener(request) === 'public' && isPrivatePath(request.path)) return next(notServedHere(request));
    next();
  };
}
