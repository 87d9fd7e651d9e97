import fc from 'fast-check';
import { exposeGc } from '../support/unit/gc';
import { fuzzTarget } from './fuzz-run';

/** Cases between two heap samples. */
const HEAP_SAMPLE_EVERY = 200;

/** What one target (a route or a tool) went through. */
interface TargetRow {
  cases: number;
  statuses: Map<string, number>;
  fiveXx: number;
  hangs: number;
  leaks: number;
  badShapes: number;
  crashes: number;
}

/** How one case ended, as the report counts it. */
export interface CaseOutcome {
  /** HTTP status, or a protocol outcome such as `rpc:-32602` or `tool:isError`. */
  status: string;
  fiveXx?: boolean;
  hang?: boolean;
  leak?: boolean;
  badShape?: boolean;
}

/**
 * Counts per target and heap samples across a fuzz run, printed as one table at the end so the figures a
 * run produced (cases, 5xx, hangs, crashes, leaks, heap) are in the CI log.
 */
export class FuzzReport {
  private readonly rows = new Map<string, TargetRow>();
  readonly heap: number[] = [];
  private readonly gc = exposeGc();
  private sinceSample = 0;

  constructor(readonly title: string) {}

  record(target: string, outcome: CaseOutcome): void {
    const row = this.row(target);
    row.cases += 1;
    row.statuses.set(outcome.status, (row.statuses.get(outcome.status) ?? 0) + 1);
    if (outcome.fiveXx) row.fiveXx += 1;
    if (outcome.hang) row.hangs += 1;
    if (outcome.leak) row.leaks += 1;
    if (outcome.badShape) row.badShapes += 1;
    if (++this.sinceSample >= HEAP_SAMPLE_EVERY) {
      this.sinceSample = 0;
      this.sampleHeap();
    }
  }

  /**
   * Fuzzes one target, then checks the process still answers its liveness probe; every failure is
   * collected in `failures` (with the replay line) so one run reports all targets.
   */
  async fuzz<T>(
    target: string,
    runs: number,
    input: fc.Arbitrary<T>,
    property: (value: T) => Promise<void>,
    appUrl: string,
    failures: string[],
  ): Promise<void> {
    try {
      await fuzzTarget(target, runs, input, property);
    } catch (error) {
      failures.push(`${target}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const live = await fetch(`${appUrl}/health/live`).catch(() => undefined);
    if (live?.status !== 200) {
      this.crashed(target);
      failures.push(`${target}: /health/live answered ${live?.status ?? 'nothing'} after its cases`);
    }
  }

  crashed(target: string): void {
    this.row(target).crashes += 1;
  }

  /** heapUsed after a full collection, so what is left is what the process holds on to. */
  sampleHeap(): void {
    this.gc();
    this.heap.push(process.memoryUsage().heapUsed);
  }

  /** Median heap of the first and of the last third of the samples, in MB. */
  /**
   * The most the last third's median heap may reach, in MB: caches and pools fill in the first third;
   * unbounded growth shows as far more than this slack.
   */
  static heapLimitMb(firstThirdMb: number): number {
    return firstThirdMb * 1.5 + 64;
  }

  heapThirds(): { first: number; last: number } {
    const third = Math.max(1, Math.floor(this.heap.length / 3));
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] / 2 ** 20;
    return { first: median(this.heap.slice(0, third)), last: median(this.heap.slice(-third)) };
  }

  totals(): Omit<TargetRow, 'statuses'> {
    const sum = (key: keyof Omit<TargetRow, 'statuses'>) => [...this.rows.values()].reduce((n, row) => n + row[key], 0);
    return {
      cases: sum('cases'),
      fiveXx: sum('fiveXx'),
      hangs: sum('hangs'),
      leaks: sum('leaks'),
      badShapes: sum('badShapes'),
      crashes: sum('crashes'),
    };
  }

  table(seconds: number): string {
    const lines = [`${this.title} — ${seconds.toFixed(1)} s`, 'cases  5xx hangs crash leaks shape  target  (statuses)'];
    for (const [target, row] of this.rows) {
      const statuses = [...row.statuses].map(([status, count]) => `${status}×${count}`).join(' ');
      const figures = [row.cases, row.fiveXx, row.hangs, row.crashes, row.leaks, row.badShapes];
      lines.push(`${figures.map((n, i) => String(n).padStart(i === 0 ? 5 : 4)).join(' ')}  ${target}  (${statuses})`);
    }
    const total = this.totals();
    const { first, last } = this.heapThirds();
    lines.push(
      `total ${total.cases} cases: 5xx ${total.fiveXx}, hangs ${total.hangs}, crashes ${total.crashes}, ` +
        `leaks ${total.leaks}, bad error shapes ${total.badShapes}; heap median first third ${first.toFixed(1)} MB, ` +
        `last third ${last.toFixed(1)} MB (${this.heap.length} samples)`,
    );
    return lines.join('\n');
  }

  private row(target: string): TargetRow {
    let row = this.rows.get(target);
    if (!row) {
      row = { cases: 0, statuses: new Map(), fiveXx: 0, hangs: 0, leaks: 0, badShapes: 0, crashes: 0 };
      this.rows.set(target, row);
    }
    return row;
  }
}
