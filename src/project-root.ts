import { existsSync } from 'node:fs';
import * as path from 'node:path';

let cached: string | undefined;

/** The folder holding package.json, whether running from src/ (tests) or dist/ (built). */
export function projectRoot(): string {
  if (cached) return cached;
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return (cached = process.cwd());
    dir = parent;
  }
  return (cached = dir);
}

/** Resolves a configured path relative to the project root unless it is absolute. */
export function resolveFromRoot(target: string): string {
  return path.isAbsolute(target) ? target : path.join(projectRoot(), target);
}
