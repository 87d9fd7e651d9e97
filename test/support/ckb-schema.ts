import Ajv from 'ajv';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/** Seed 001 §3.1's JSON Schema, verbatim, compiled once. */
const schema = JSON.parse(
  readFileSync(path.join(__dirname, '..', 'contract', 'mcp-output-metadata.schema.json'), 'utf8'),
) as object;
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

/** Asserts `metadata` validates against the seed's schema, showing ajv's errors when it does not. */
export function expectSeedMetadata(metadata: unknown): void {
  const valid = validate(metadata);
  expect({ valid, errors: validate.errors ?? null }).toEqual({ valid: true, errors: null });
}
