import * as path from 'node:path';

/**
 * A file path reported by CKB as a path relative to the indexed root (CKB may report absolute paths,
 * `./` prefixes or `file://` URIs). Paths outside the root yield undefined.
 */
export function relativeToRoot(file: string, root: string | undefined): string | undefined {
  const cleaned = file.replace(/^file:\/\//, '').replace(/\\/g, '/');
  if (path.posix.isAbsolute(cleaned)) {
    if (!root) return undefined;
    const relative = path.posix.relative(root.replace(/\\/g, '/'), cleaned);
    return relative.startsWith('..') || relative === '' ? undefined : relative;
  }
  const normalized = path.posix.normalize(cleaned);
  return normalized.startsWith('..') ? undefined : normalized.replace(/^\.\//, '');
}
