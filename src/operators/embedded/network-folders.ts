import { existsSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';

/** KN_DIR itself when it is one network, plus each sub-folder (one network per folder), sorted. */
export function networkFolders(knDir: string): string[] {
  if (!existsSync(knDir) || !statSync(knDir).isDirectory()) return [];
  const children = readdirSync(knDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => path.join(knDir, entry.name))
    .sort();
  return [knDir, ...children];
}

/** Files in `<folder>/<sub>` whose extension is one of `extensions`, sorted by name. */
export function filesIn(folder: string, sub: string, extensions: string[]): string[] {
  const dir = path.join(folder, sub);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && extensions.includes(path.extname(entry.name).toLowerCase()))
    .map((entry) => path.join(dir, entry.name))
    .sort();
}
