import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { projectRoot } from '../../project-root';

/** Error details that are translated into the caller's language when the error is presented. */
export class LocalizedDetails {
  constructor(
    readonly key: string,
    readonly args: Record<string, string | number>,
  ) {}
}

type Texts = { [name: string]: string | Texts };

let english: Record<string, Texts> | undefined;

/**
 * Details as English text, outside any request (a command-line tool has no i18n service): the en-US
 * template of LocalizedDetails with its arguments, a string as it is.
 */
export function englishDetails(details: unknown): string {
  if (!(details instanceof LocalizedDetails)) return typeof details === 'string' ? details : JSON.stringify(details);
  const [file, ...names] = details.key.split('.');
  english ??= {};
  english[file] ??= JSON.parse(
    readFileSync(path.join(projectRoot(), 'i18n', 'en-US', `${file}.json`), 'utf8'),
  ) as Texts;
  let text: string | Texts | undefined = english[file];
  for (const name of names) text = typeof text === 'object' ? text[name] : undefined;
  const template = typeof text === 'string' ? text : details.key;
  return template.replace(/\{(\w+)\}/g, (whole, arg: string) => String(details.args[arg] ?? whole));
}
