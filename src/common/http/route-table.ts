import type { Application } from 'express';

interface RouterLayer {
  route?: { methods: Record<string, boolean> };
  match(path: string): boolean;
}

/** Methods the Express router would accept for a path; lets an unmatched method answer 405, not 404. */
export function allowedMethods(app: Application, path: string): string[] {
  const router = (app as unknown as { router?: { stack: RouterLayer[] } }).router;
  const methods = new Set<string>();
  for (const layer of router?.stack ?? []) {
    if (!layer.route) continue;
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
