import { ExecutionContext, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';

/**
 * Who may call a route (SPEC §5): `public` needs a valid Bearer token, `private` is in-cluster and
 * takes the account from x-account-* headers, `open` is for anyone (probes, metrics, discovery).
 */
export type RouteAccess = 'public' | 'private' | 'open';

export const ROUTE_ACCESS = 'agentRetrieval:routeAccess';

/** Declares the access class of a controller (or of one handler, which then wins). */
export const Access = (access: RouteAccess): ClassDecorator & MethodDecorator => SetMetadata(ROUTE_ACCESS, access);

/**
 * The access class of the route that matched, read from its handler or controller — never from the
 * URL, which the router may have matched in a way a string test would not. Undefined = undeclared.
 */
export function matchedRouteAccess(reflector: Reflector, context: ExecutionContext): RouteAccess | undefined {
  return reflector.getAllAndOverride<RouteAccess | undefined>(ROUTE_ACCESS, [context.getHandler(), context.getClass()]);
}
