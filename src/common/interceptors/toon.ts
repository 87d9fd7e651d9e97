import type * as Toon from '@toon-format/toon' with { 'resolution-mode': 'import' };

// @toon-format/toon ships ESM only; Node 20.19+ loads it through require(esm).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const toon = require('@toon-format/toon') as typeof Toon;

/** TOON text for a JSON-compatible value (JSON round-trip first so class instances encode by their fields). */
export function encodeToon(value: unknown): string {
  return encodeToonFromJson(JSON.parse(JSON.stringify(value)));
}

/**
 * TOON text for a value that already came out of `JSON.parse` (no undefined, no class instances),
 * for callers that hold that copy anyway and should not pay for a second round-trip.
 */
export function encodeToonFromJson(parsed: unknown): string {
  return toon.encode(parsed as Parameters<typeof toon.encode>[0]);
}

export function decodeToon(text: string): unknown {
  return toon.decode(text);
}
