import * as path from 'node:path';
import { CodeLanguage } from './code-index.types';

const JS_PATTERNS = [
  /\bimport\s+(?:type\s+)?(?:[\w$*{}\s,]+?\s+from\s+)?['"]([^'"\n]+)['"]/g,
  /\bexport\s+(?:type\s+)?[\w$*{}\s,]+?\s+from\s+['"]([^'"\n]+)['"]/g,
  /\brequire\(\s*['"]([^'"\n]+)['"]\s*\)/g,
  /\bimport\(\s*['"]([^'"\n]+)['"]\s*\)/g,
];

function matchesOf(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((match) => match[1]);
}

function pythonSpecifiers(text: string): string[] {
  const specifiers: string[] = [];
  for (const match of text.matchAll(/^[ \t]*from[ \t]+(\.+[\w.]*|[\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[\w \t,*]+)/gm)) {
    const module = match[1];
    const names = match[2].replace(/[()]/g, '');
    // `from . import helpers` imports sibling modules, not names of a package module.
    if (/^\.+$/.test(module))
      names.split(',').forEach((name) => name.trim() && specifiers.push(`${module}${name.trim()}`));
    else specifiers.push(module);
  }
  for (const match of text.matchAll(/^[ \t]*import[ \t]+([\w.]+(?:[ \t]*,[ \t]*[\w.]+)*)/gm)) {
    match[1].split(',').forEach((name) => specifiers.push(name.trim()));
  }
  return specifiers.filter((specifier) => specifier.length > 0);
}

function goSpecifiers(text: string): string[] {
  const specifiers = matchesOf(text, /^\s*import\s+(?:[\w.]+\s+)?"([^"\n]+)"/gm);
  for (const block of text.matchAll(/^\s*import\s*\(([\s\S]*?)\)/gm)) {
    specifiers.push(...matchesOf(block[1], /(?:^|\n)\s*(?:[\w.]+\s+)?"([^"\n]+)"/g));
  }
  return specifiers;
}

/** The module specifiers a file imports (import/require/from-import/Go import). */
export function importSpecifiers(language: CodeLanguage, text: string): string[] {
  if (language === 'python') return pythonSpecifiers(text);
  if (language === 'go') return goSpecifiers(text);
  return JS_PATTERNS.flatMap((pattern) => matchesOf(text, pattern));
}

const JS_EXTENSIONS = ['', '.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '/index.ts', '/index.js'];

function resolveJs(fromFile: string, specifier: string, files: ReadonlySet<string>): string[] {
  if (!specifier.startsWith('.')) return [];
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
  // TypeScript ESM code imports './x.js' for the source file './x.ts'.
  const stems = /\.(m|c)?js$/.test(base) ? [base, base.replace(/\.(m|c)?js$/, '')] : [base];
  for (const stem of stems) {
    const found = JS_EXTENSIONS.map((extension) => stem + extension).find((candidate) => files.has(candidate));
    if (found) return [found];
  }
  return [];
}

function resolvePython(fromFile: string, specifier: string, files: ReadonlySet<string>): string[] {
  const dots = /^\.*/.exec(specifier)?.[0].length ?? 0;
  const modulePath = specifier.slice(dots).split('.').filter(Boolean).join('/');
  let bases: string[];
  if (dots > 0) {
    let directory = path.posix.dirname(fromFile);
    for (let level = 1; level < dots; level += 1) directory = path.posix.dirname(directory);
    bases = [path.posix.join(directory, modulePath)];
  } else {
    // Absolute imports of local packages: from the root or from the importing file's top folder.
    const top = fromFile.split('/')[0];
    bases = [modulePath, `${top}/${modulePath}`];
  }
  for (const base of bases.map((entry) => path.posix.normalize(entry))) {
    const found = [`${base}.py`, `${base}/__init__.py`].find((candidate) => files.has(candidate));
    if (found) return [found];
  }
  return [];
}

function resolveGo(fromFile: string, specifier: string, files: ReadonlySet<string>): string[] {
  // Go imports name a package by module path; match its longest tail against the indexed folders.
  // Standard-library paths (no dot in the first segment, e.g. "fmt") are never local.
  const segments = specifier.split('/');
  if (!segments[0].includes('.')) return [];
  for (let take = segments.length; take >= 1; take -= 1) {
    const tail = segments.slice(segments.length - take).join('/');
    const found = [...files].filter(
      (file) =>
        file.endsWith('.go') &&
        file !== fromFile &&
        (path.posix.dirname(file) === tail || path.posix.dirname(file).endsWith(`/${tail}`)),
    );
    if (found.length > 0) return found;
  }
  return [];
}

/** The indexed files an import specifier points to; package (non-local) imports resolve to nothing. */
export function resolveImport(
  language: CodeLanguage,
  fromFile: string,
  specifier: string,
  files: ReadonlySet<string>,
): string[] {
  if (language === 'python') return resolvePython(fromFile, specifier, files);
  if (language === 'go') return resolveGo(fromFile, specifier, files);
  return resolveJs(fromFile, specifier, files);
}
