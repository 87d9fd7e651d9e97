import fc from 'fast-check';
import { appendFileSync } from 'node:fs';

/** The run's seed: `FUZZ_SEED`, else a fixed default, so every run tries the same cases unless told otherwise. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261122);

/** Cases across both fuzz suites (REST routes and MCP tools); `FUZZ_RUNS` raises it. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 10000);

/** Only targets whose name contains this text (to replay one failure). */
const FUZZ_ONLY = process.env.FUZZ_ONLY;

/** With `FUZZ_LOG=<file>`, one line per case (target, status, body kind, start of the answer), for triage. */
const FUZZ_LOG = process.env.FUZZ_LOG;

export function logCase(target: string, status: number | string, kind: string | undefined, answer: string): void {
  if (FUZZ_LOG)
    appendFileSync(FUZZ_LOG, `${target}\t${status}\t${kind ?? '-'}\t${answer.slice(0, 200).replace(/\s+/g, ' ')}\n`);
}

/** Longest any one fuzz request may go unanswered before it counts as a hang (routes' own deadlines are ≤ 10 s). */
export const CASE_DEADLINE_MS = 15000;

export function selected(target: string): boolean {
  return !FUZZ_ONLY || target.includes(FUZZ_ONLY);
}

/** Each target's own seed, derived from the run's: replaying one target replays exactly its cases. */
export function targetSeed(target: string): number {
  let hash = 0x811c9dc5;
  for (const char of target) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return (FUZZ_SEED ^ hash) | 0;
}

/** Splits a budget of cases over targets by weight; every target gets at least one case. */
export function shareCases(weights: Map<string, number>, budget: number): Map<string, number> {
  const total = [...weights.values()].reduce((sum, weight) => sum + weight, 0);
  return new Map([...weights].map(([target, weight]) => [target, Math.max(1, Math.ceil((budget * weight) / total))]));
}

/**
 * Runs one target's property with its seed; a failure names the seed and the command that replays it
 * (fast-check adds the counterexample and its own seed and path).
 */
export async function fuzzTarget<T>(
  target: string,
  numRuns: number,
  input: fc.Arbitrary<T>,
  property: (value: T) => Promise<void>,
): Promise<void> {
  const seed = targetSeed(target);
  try {
    await fc.assert(fc.asyncProperty(input, property), { seed, numRuns, endOnFailure: true });
  } catch (error) {
    const replay = `replay: FUZZ_SEED=${FUZZ_SEED} FUZZ_ONLY='${target}' (target seed ${seed})`;
    const cause = error instanceof Error && error.cause instanceof Error ? `\nfailure: ${error.cause.message}` : '';
    const message = (error instanceof Error ? error.message : String(error)).replace(/\n\nHint: .*$/s, '');
    throw new Error(`${replay}\n${message}${cause}`);
  }
}

/** How a generated value prints in a failure report: short, whatever its size. */
export function printable<T extends object>(value: T, describe: (value: T) => string): T {
  Object.defineProperty(value, fc.toStringMethod, { value: () => describe(value), enumerable: false });
  return value;
}
