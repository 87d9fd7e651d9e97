import type * as Toon from '@toon-format/toon' with { 'resolution-mode': 'import' };

// @toon-format/toon ships ESM only; Node 20.19+ loads it through require(esm).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const toon = require('@toon-format/toon') as typeof Toon;

/** TOON text for a JSON-compatible value (JSON round-trip first so class instances encode by their fields). */
export function encodeToon(value: unknown): string {
  return toon.encode(JSON.parse(JSON.stringify(value)) as Parameters<typeof toon.encode>[0]);
}

export function decodeToon(text: string): unknown {
  return toon.decode(text);
}
