import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { localeFiles } from '../../test/support/unit/i18n';
import { LANGUAGES } from '../config/i18n.config';
import { projectRoot } from '../project-root';

const chatDir = path.join(projectRoot(), 'src', 'chat');

/** The helpers that take a text's key as their second argument (after the definition), and its group. */
const HELPERS: [RegExp, string][] = [
  [/modelError\(\s*(?:\{[^}]*\}|[\w.]+),\s*([^,)]+)/g, 'model'],
  [/workspaceError\(\s*[\w.]+,\s*([^,)]+)/g, 'workspace'],
  // The chat request schema names its refusals' texts with refuse('key').
  [/\brefuse\(\s*([^,)]+)/g, 'request'],
];

/** Every chat.json text the chat feature names: LocalizedDetails keys and the helpers' `key` arguments. */
function namedTexts(): string[] {
  const sources = (readdirSync(chatDir, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'))
    .map((file) => readFileSync(path.join(chatDir, file), 'utf8'));
  const keys = new Set<string>();
  for (const text of sources) {
    for (const match of text.matchAll(/LocalizedDetails\(\s*'(chat\.\w+\.\w+)'/g)) keys.add(match[1]);
    for (const match of text.matchAll(/invalidChatRequest\(([^,)]+)/g)) {
      for (const key of match[1].matchAll(/'(\w+)'/g)) keys.add(`chat.request.${key[1]}`);
    }
    for (const [helper, group] of HELPERS) {
      for (const match of text.matchAll(helper)) {
        for (const key of match[1].matchAll(/'(\w+)'/g)) keys.add(`chat.${group}.${key[1]}`);
      }
    }
  }
  return [...keys].sort();
}

describe('chat error details', () => {
  const keys = namedTexts();

  it('finds the texts the chat feature names', () => {
    expect(keys).toEqual(
      expect.arrayContaining([
        'chat.request.bodyNotObject',
        'chat.request.integerRange',
        'chat.model.rejected',
        'chat.tool.failed',
        'chat.workspace.notUtf8Text',
        'chat.workspace.diskFull',
      ]),
    );
  });

  it.each(LANGUAGES.flatMap((language) => keys.map((key) => [language, key])))('%s has %s', async (language, key) => {
    const text = (await localeFiles()).translate(key, { lang: language });
    expect(typeof text).toBe('string');
    expect(text).not.toBe(key);
  });
});
