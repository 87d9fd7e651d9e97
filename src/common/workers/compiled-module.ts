import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { projectRoot } from '../../project-root';

/**
 * The JavaScript file a worker thread can load for module `name` in `dir`. The built service finds it
 * beside the caller; TypeScript sources run by ts-jest have no JavaScript twin there, so the compiled
 * one under `dist/` is used (the e2e suite builds `dist/` before it starts).
 */
export function compiledModule(dir: string, name: string): string {
  const beside = path.join(dir, `${name}.js`);
  if (existsSync(beside)) return beside;
  const relative = path.relative(path.join(projectRoot(), 'src'), dir);
  return path.join(projectRoot(), 'dist', relative, `${name}.js`);
}
