import { plainJson } from '../json/plain-json';
import type * as Toon from '@toon-format/toon' with { 'resolution-mode': 'import' };

// @toon-format/toon ships ESM only; Node 20.19+ loads it through require(esm).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const toon = require('@toon-format/toon') as typeof Toon;

/** TOON text for a JSON-compatible value (its plain JSON copy first, so class instances encode by their fields). */
export function encodeToon(value: unknown): string {
  return encodeToonFromJson(plainJson(value));
}

/**
 * TOON text for a value that is already plain JSON (no undefined, no class instances),
 * for callers that hold that copy anyway and should not pay for a second round-trip.
 */
export function encodeToonFromJson(parsed: unknown): string {
  try {
    return toon.encode(parsed as Parameters<typeof toon.encode>[0]);
  } catch (error) {
    // TOON refuses unpaired surrogates (JSON escapes them); upstream data may hold some. Repair, then encode.
    if (!(error instanceof TypeError) || !/surrogate/i.test(error.message)) throw error;
    return toon.encode(wellFormed(parsed) as Parameters<typeof toon.encode>[0]);
  }
}

/** A copy with every string and key made well-formed (unpaired surrogates become U+FFFD). */
function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return value.toWellFormed();
  if (Array.isArray(value)) return value.map(wellFormed);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key.toWellFormed(), wellFormed(item)]));
}

export function decodeToon(text: string): unknown {
  return toon.decode(text);
}
