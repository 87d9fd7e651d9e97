import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { projectRoot } from '../../project-root';
import { AuthErrors, PublicErrors, UpstreamErrors, ValidationErrors } from '../errors/error-codes';

const i18nDir = path.join(projectRoot(), 'i18n');

function flattenKeys(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object') return [prefix];
  return Object.entries(value).flatMap(([key, child]) => flattenKeys(child, prefix ? `${prefix}.${key}` : key));
}

function keysOf(language: string): Set<string> {
  const dir = path.join(i18nDir, language);
  return new Set(
    readdirSync(dir)
      .filter((file) => file.endsWith('.json'))
      .flatMap((file) => flattenKeys(JSON.parse(readFileSync(path.join(dir, file), 'utf8'))).map((key) => `${file}:${key}`)),
  );
}

describe('locale files', () => {
  it('zh-Hans and en-US carry exactly the same keys', () => {
    const zh = [...keysOf('zh-Hans')].sort();
    const en = [...keysOf('en-US')].sort();
    expect(zh).toEqual(en);
  });

  it('every catalogue code has a description and a solution in both languages', () => {
    const definitions = [PublicErrors, ValidationErrors, AuthErrors, UpstreamErrors].flatMap((group) => Object.values(group));
    for (const language of ['zh-Hans', 'en-US']) {
      const keys = keysOf(language);
      for (const definition of definitions) {
        expect(keys).toContain(`errors.json:${definition.key}.description`);
        expect(keys).toContain(`errors.json:${definition.key}.solution`);
      }
    }
  });
});
