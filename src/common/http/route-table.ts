import type { IncomingMessage } from 'node:http';
import type { Application } from 'express';

interface RouterLayer {
  route?: { path?: unknown; methods: Record<string, boolean> };
  match(path: string): boolean;
}

/** The path Nest uses for module middleware and its not-found handler. */
export const CATCH_ALL_ROUTE = '/{*path}';

/**
 * The route template Express matched (never the raw URL, which would explode label cardinality), or
 * `unmatched`; metrics labels, log lines and trace spans all name routes with it.
 */
export function routeTemplate(request: IncomingMessage): string {
  const route = (request as IncomingMessage & { route?: { path?: unknown } }).route;
  return typeof route?.path === 'string' && route.path !== CATCH_ALL_ROUTE ? route.path : 'unmatched';
}

/** Methods the Express router would accept for a path; lets an unmatched method answer 405, not 404. */
export function allowedMethods(app: Application, path: string): string[] {
  const router = (app as unknown as { router?: { stack: RouterLayer[] } }).router;
  const methods = new Set<string>();
  for (const layer of router?.stack ?? []) {
    // Nest mounts module middleware as catch-all routes; they say nothing about real endpoints.
    if (!layer.route || layer.route.path === CATCH_ALL_ROUTE) continue;
    let matches = false;
    try {
      matches = layer.match(path);
    } catch {
      matches = false;
    }
    if (!matches) continue;
    for (const [method, enabled] of Object.entries(layer.route.methods)) {
      if (enabled && method !== '_all') methods.add(method.toUpperCase());
    }
  }
  return [...methods].sort();
}
