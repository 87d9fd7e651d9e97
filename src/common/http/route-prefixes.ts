import { applyDecorators, Controller } from '@nestjs/common';

export const PUBLIC_PREFIX = '/api/agent-retrieval/v1';
export const PRIVATE_PREFIX = '/api/agent-retrieval/in/v1';

const join = (prefix: string, path: string): string => `${prefix}/${path.replace(/^\/+/, '')}`.replace(/\/+$/, '');

/** A controller served under both the public (Bearer) and private (x-account-*) prefixes. */
export function ApiController(path: string): ClassDecorator {
  return applyDecorators(Controller([join(PUBLIC_PREFIX, path), join(PRIVATE_PREFIX, path)]));
}

/** A controller served only under the public prefix. */
export function PublicController(path: string): ClassDecorator {
  return applyDecorators(Controller(join(PUBLIC_PREFIX, path)));
}

/** A controller served only under the private (in-cluster) prefix; never exposed by the ingress. */
export function PrivateController(path: string): ClassDecorator {
  return applyDecorators(Controller(join(PRIVATE_PREFIX, path)));
}

export type RouteAccess = 'public' | 'private' | 'open';

/** Which auth model a request path falls under (SPEC §5). */
export function routeAccess(path: string): RouteAccess {
  if (path === PUBLIC_PREFIX || path.startsWith(`${PUBLIC_PREFIX}/`)) return 'public';
  if (path === PRIVATE_PREFIX || path.startsWith(`${PRIVATE_PREFIX}/`)) return 'private';
  return 'open';
}
