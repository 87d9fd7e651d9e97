import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { projectRoot } from '../project-root';

const srcDir = path.join(projectRoot(), 'src');
const commonDir = path.join(srcDir, 'common');

/**
 * What `common` may build on: itself and the service's infrastructure (typed config, metrics, tracing,
 * the project root). Never a feature (chat, mcpserver, knsearch, …): a feature plugs into common through
 * an extension point instead (an error shape registered with ErrorShapes, a port, a decorator).
 */
const ALLOWED_IN_SRC = new Set(['common', 'config', 'metrics', 'tracing', 'project-root']);
/** Specs may also use the shared test support. */
const ALLOWED_IN_SPECS = new Set([...ALLOWED_IN_SRC, '../test']);

const RELATIVE_IMPORT =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bjest\.(?:mock|requireActual)\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

const FILES = (readdirSync(commonDir, { recursive: true }) as string[])
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
  .sort();

/** The folder under src/ (or `../test`) a relative import of `file` lands in; a top-level file by its name. */
function landsIn(file: string, specifier: string): string {
  const target = path.relative(srcDir, path.resolve(path.dirname(path.join(commonDir, file)), specifier));
  const [first, second] = target.split(path.sep);
  if (first === '..') return `../${second}`;
  return first.replace(/\.(ts|js)$/, '');
}

function outsideImports(file: string): string[] {
  const allowed = file.endsWith('.spec.ts') ? ALLOWED_IN_SPECS : ALLOWED_IN_SRC;
  const text = readFileSync(path.join(commonDir, file), 'utf8');
  return [...text.matchAll(RELATIVE_IMPORT)]
    .map((match) => match[1])
    .filter((specifier) => !allowed.has(landsIn(file, specifier)))
    .map((specifier) => `${file} imports ${specifier}`);
}

describe('src/common depends on no feature', () => {
  it('finds the files and their imports', () => {
    expect(FILES).toEqual(expect.arrayContaining([path.join('errors', 'http-exception.filter.ts')]));
    expect(landsIn(path.join('errors', 'x.ts'), '../../chat/openai-error-shape')).toBe('chat');
    expect(landsIn(path.join('errors', 'x.ts'), '../../config')).toBe('config');
    expect(landsIn(path.join('errors', 'x.ts'), '../../project-root')).toBe('project-root');
    expect(landsIn(path.join('errors', 'x.ts'), './app.exception')).toBe('common');
    expect(landsIn(path.join('errors', 'x.spec.ts'), '../../../test/support/unit/config')).toBe('../test');
  });

  it('imports only from common, config, metrics, tracing and project-root (specs also from test/)', () => {
    expect(FILES.flatMap(outsideImports)).toEqual([]);
  });
});
