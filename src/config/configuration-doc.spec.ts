import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { projectRoot } from '../project-root';
import { documentedVariables, renderConfigurationDoc } from './configuration-doc';
import { NAMESPACES } from './index';

const everyVariable = () => Object.values(NAMESPACES).flatMap((namespace) => documentedVariables(namespace.env));

describe('docs/configuration.md', () => {
  it('finds the variables of every area (sanity check of the metadata walk)', () => {
    const names = everyVariable().map((variable) => variable.name);
    expect(names).toEqual(expect.arrayContaining(['PORT', 'AUTH_MODE', 'KN_DIR', 'CKB_TIMEOUT_MS', 'REDIS_URL']));
    expect(new Set(names).size).toBe(names.length);
  });

  it('has a description for every variable the service reads', () => {
    expect(
      everyVariable()
        .filter((variable) => !variable.text?.trim())
        .map((variable) => variable.name),
    ).toEqual([]);
  });

  it('renders defaults and accepted values from the classes', () => {
    const doc = renderConfigurationDoc();
    expect(doc).toContain('| `PORT` | `30779` | integer 0–65535 |');
    expect(doc).toContain('| `AUTH_MODE` | `none` | `none`, `introspect`, `static` |');
    expect(doc).toContain('| `PRIVATE_PORT` | *unset: the private prefix shares `PORT`* |');
  });

  it('is the committed file, byte for byte (else run `npm run docs:config`)', () => {
    const committed = readFileSync(path.join(projectRoot(), 'docs', 'configuration.md'), 'utf8');
    expect(committed).toBe(renderConfigurationDoc());
  });
});
