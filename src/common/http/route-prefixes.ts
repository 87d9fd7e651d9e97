import { applyDecorators, Controller, Type } from '@nestjs/common';
import { Access, RouteAccess } from './route-access';

export const PUBLIC_PREFIX = '/api/agent-retrieval/v1';
export const PRIVATE_PREFIX = '/api/agent-retrieval/in/v1';

const join = (prefix: string, path: string): string => `${prefix}/${path.replace(/^\/+/, '')}`.replace(/\/+$/, '');

function mounted(access: RouteAccess, paths: string[]): ClassDecorator {
  return applyDecorators(Controller(paths), Access(access));
}

/** A controller served only under the public prefix: every route needs a valid Bearer token. */
export function PublicController(path: string): ClassDecorator {
  return mounted('public', [join(PUBLIC_PREFIX, path)]);
}

/** A controller served only under the private (in-cluster) prefix; never exposed by the ingress. */
export function PrivateController(path: string): ClassDecorator {
  return mounted('private', [join(PRIVATE_PREFIX, path)]);
}

/** A controller outside both prefixes that anyone may call: probes, metrics, discovery documents. */
export function OpenController(...paths: string[]): ClassDecorator {
  return mounted('open', paths);
}

const API_CONTROLLER_PATH = 'agentRetrieval:apiControllerPath';
const privateTwins = new WeakMap<Type, Type>();

/**
 * A controller served under both prefixes. The class itself serves the public prefix; list it through
 * `withPrivateTwins` so a subclass serves the private one. Two classes, so every route has exactly one
 * access class for the guard to read.
 */
export function ApiController(path: string): ClassDecorator {
  return (target) => {
    PublicController(path)(target);
    Reflect.defineMetadata(API_CONTROLLER_PATH, path, target);
  };
}

/** A module's controllers, each `@ApiController` followed by its private-prefix twin. */
export function withPrivateTwins(...controllers: Type[]): Type[] {
  return controllers.flatMap((controller) => {
    const path = Reflect.getOwnMetadata(API_CONTROLLER_PATH, controller) as string | undefined;
    return path === undefined ? [controller] : [controller, privateTwin(controller, path)];
  });
}

function privateTwin(controller: Type, path: string): Type {
  const existing = privateTwins.get(controller);
  if (existing) return existing;
  const twin = class extends controller {};
  Object.defineProperty(twin, 'name', { value: `${controller.name}Private` });
  PrivateController(path)(twin);
  privateTwins.set(controller, twin);
  return twin;
}
