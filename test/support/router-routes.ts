import type { Application } from 'express';
import { CATCH_ALL_ROUTE } from '../../src/common/http/route-table';
import type { TestApp } from './app';

export interface Route {
  method: string;
  /** A concrete URL for the route: every parameter and wildcard filled in with `x`. */
  path: string;
  /** The template as registered, e.g. `/…/mcp/proxy/:mcp_id/tools/:tool_name/call`. */
  template: string;
  /** The template ends in a wildcard, so `path/` is still this route. */
  wildcard: boolean;
}

interface RouterLayer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** Every route the Express router holds (Nest's catch-all middleware aside), read at run time. */
export function routerRoutes(app: TestApp): Route[] {
  const express = app.app.getHttpAdapter().getInstance() as Application;
  const stack = (express as unknown as { router: { stack: RouterLayer[] } }).router.stack;
  return stack.flatMap((layer) => {
    if (!layer.route || layer.route.path === CATCH_ALL_ROUTE) return [];
    const methods = Object.keys(layer.route.methods).filter((method) => method !== '_all');
    const template = layer.route.path;
    return methods.map((method) => ({
      method: method.toUpperCase(),
      path: fillTemplate(template, () => 'x'),
      template,
      wildcard: /\*\w+$/.test(template),
    }));
  });
}

/** The names of a template's parameters and wildcard, in order (`:mcp_id` → `mcp_id`, `*path` → `path`). */
export function templateParameters(template: string): string[] {
  return [...template.matchAll(/[:*]([A-Za-z_]+)/g)].map((match) => match[1]);
}

/** A URL for a route template, each parameter and wildcard replaced by what `value(name)` gives. */
export function fillTemplate(template: string, value: (name: string) => string): string {
  return template.replace(/[:*]([A-Za-z_]+)/g, (_match, name: string) => value(name));
}
