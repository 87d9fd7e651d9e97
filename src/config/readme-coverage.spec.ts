import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { TransformationType } from 'class-transformer';
import { projectRoot } from '../project-root';
import { NAMESPACES } from './index';

/** Every environment variable the service reads, from the @Expose metadata of the env classes. */
function environmentVariables(): string[] {
  return Object.values(NAMESPACES).flatMap((namespace) =>
    defaultMetadataStorage
      .getExposedProperties(namespace.env, TransformationType.PLAIN_TO_CLASS)
      .filter((name) => /^[A-Z][A-Z0-9_]*$/.test(name)),
  );
}

describe('README configuration tables', () => {
  const readme = readFileSync(path.join(projectRoot(), 'README.md'), 'utf8');

  it('finds the variables (sanity check of the metadata walk)', () => {
    expect(environmentVariables()).toEqual(expect.arrayContaining(['PORT', 'AUTH_MODE', 'KN_DIR', 'CKB_TIMEOUT_MS']));
  });

  it.each(environmentVariables())('documents %s in a table row with its default', (name) => {
    expect(readme).toMatch(new RegExp(`^\\| \`${name}\` \\| [^|]+ \\|`, 'm'));
  });
});
