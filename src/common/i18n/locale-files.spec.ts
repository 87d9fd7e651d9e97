import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { LANGUAGES } from '../../config/i18n.config';
import { projectRoot } from '../../project-root';
import { ErrorDefinition } from '../errors/error-codes';

const i18nDir = path.join(projectRoot(), 'i18n');
const srcDir = path.join(projectRoot(), 'src');

const SOURCE_FILES = (readdirSync(srcDir, { recursive: true }) as string[])
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts') && !file.endsWith('.d.ts'))
  .sort();

/** The shared catalogue plus every feature's `*.errors.ts`, found on disk so a new feature cannot be left out. */
const ERROR_MODULES = [
  path.join('common', 'errors', 'error-codes.ts'),
  ...SOURCE_FILES.filter((file) => file.endsWith('.errors.ts')),
];

const isErrorDefinition = (value: unknown): value is ErrorDefinition => {
  const candidate = value as Partial<ErrorDefinition> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.code === 'string' &&
    typeof candidate.status === 'number' &&
    typeof candidate.key === 'string'
  );
};

/** Every ErrorDefinition in the exported groups (`export const KnErrors = {...}`) of one module. */
function definitionsOf(file: string): ErrorDefinition[] {
  const exported = jest.requireActual<Record<string, unknown>>(path.join(srcDir, file));
  return Object.values(exported)
    .filter((group): group is Record<string, unknown> => typeof group === 'object' && group !== null)
    .flatMap((group) => Object.values(group).filter(isErrorDefinition));
}

const DEFINITIONS = ERROR_MODULES.flatMap(definitionsOf);

function flattenKeys(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object') return [prefix];
  return Object.entries(value).flatMap(([key, child]) => flattenKeys(child, prefix ? `${prefix}.${key}` : key));
}

function keysOf(language: string): Set<string> {
  const dir = path.join(i18nDir, language);
  return new Set(
    readdirSync(dir)
      .filter((file) => file.endsWith('.json'))
      .flatMap((file) =>
        flattenKeys(JSON.parse(readFileSync(path.join(dir, file), 'utf8'))).map((key) => `${file}:${key}`),
      ),
  );
}

type ErrorTexts = Record<string, { description?: unknown; solution?: unknown }>;
const errorTexts = (language: string): ErrorTexts =>
  JSON.parse(readFileSync(path.join(i18nDir, language, 'errors.json'), 'utf8')) as ErrorTexts;

describe('locale files', () => {
  it('has one directory per supported language', () => {
    const directories = readdirSync(i18nDir, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(directories.map((entry) => entry.name).sort()).toEqual([...LANGUAGES].sort());
  });

  it('zh-Hans and en-US carry exactly the same keys', () => {
    const zh = [...keysOf('zh-Hans')].sort();
    const en = [...keysOf('en-US')].sort();
    expect(zh).toEqual(en);
  });

  it('reads the codes of the shared catalogue and of every feature errors module', () => {
    expect(ERROR_MODULES).toEqual(
      expect.arrayContaining([
        path.join('actionrecall', 'actionrecall.errors.ts'),
        path.join('knowledge-network', 'knowledge-network.errors.ts'),
        path.join('knowledge-network', 'kweaver', 'kweaver.errors.ts'),
        path.join('operators', 'operator.errors.ts'),
      ]),
    );
    expect(ERROR_MODULES.filter((file) => definitionsOf(file).length === 0)).toEqual([]);
    expect(DEFINITIONS.map((definition) => definition.code)).toEqual(
      expect.arrayContaining([
        'Public.NotFound',
        'agentRetrieval.BadRequest.ValidationRange',
        'agentRetrieval.NotFound.MCPToolNotFound',
      ]),
    );
  });

  it('declares error codes (specificError, publicError, a code literal) only in those modules', () => {
    // zod's own issue code (`code: 'custom'` in a refinement) is not one of ours.
    const declaring = SOURCE_FILES.filter((file) =>
      /\b(specificError|publicError)\(|\bcode:\s*['"`](?!custom['"`])/.test(
        readFileSync(path.join(srcDir, file), 'utf8'),
      ),
    );
    expect(declaring.filter((file) => !ERROR_MODULES.includes(file))).toEqual([]);
  });

  it('declares each code once', () => {
    const codes = DEFINITIONS.map((definition) => definition.code);
    expect(codes.filter((code, index) => codes.indexOf(code) !== index)).toEqual([]);
  });

  it.each(
    LANGUAGES.flatMap((language) => DEFINITIONS.map((definition) => [language, definition.code, definition.key])),
  )('%s: %s has a description and a solution (errors.%s)', (language, _code, key) => {
    const texts = errorTexts(language)[key];
    expect(texts).toEqual(expect.objectContaining({ description: expect.any(String), solution: expect.any(String) }));
    expect(String(texts.description).trim()).not.toBe('');
    expect(String(texts.solution).trim()).not.toBe('');
  });
});
