import { setTimeout as sleep } from 'node:timers/promises';
import { until } from './until';

/** One request the load loop sends; `label` says what kind it is (route, token kind) for the assertions. */
export interface TrafficRequest {
  label: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: unknown;
}

/** What came back. `status` 0: no answer before the hang limit; -1: the connection failed. */
export interface TrafficResult {
  label: string;
  requestId: string;
  status: number;
  contentType: string;
  text: string;
  body: unknown;
  startedAt: number;
  finishedAt: number;
}

export interface TrafficOptions {
  concurrency: number;
  /** A request still unanswered after this long counts as a hang (status 0). */
  hangAfterMs: number;
  next: (sequence: number) => TrafficRequest;
  /** Prefix of the X-Request-Id of every request (stand-ins see it and can say which fault answered). */
  idPrefix: string;
  /** Pause between one worker's requests (a health watcher uses a long one). */
  pauseMs?: number;
  /** The loop ends by itself after this long, so a failed test cannot leave it running (default 60 s). */
  maxMs?: number;
}

/**
 * A bounded load loop for the fault suite: `concurrency` workers send requests back to back until
 * stopped, recording every status and body. Nothing is thrown from a request: a hang or a refused
 * connection is a result like any other, so the test sees all of them.
 */
export class Traffic {
  private static readonly started = new Set<Traffic>();
  readonly results: TrafficResult[] = [];
  private running = false;
  private sequence = 0;
  private workers: Promise<void>[] = [];

  constructor(private readonly options: TrafficOptions) {}

  /** Stops every loop still running (an afterEach, so a failed test leaves no traffic behind). */
  static async stopAll(): Promise<void> {
    await Promise.all([...Traffic.started].map((traffic) => traffic.stop()));
  }

  start(): this {
    Traffic.started.add(this);
    this.running = true;
    this.workers = Array.from({ length: this.options.concurrency }, () => this.work());
    return this;
  }

  /** Stops sending and waits for the requests in flight. */
  async stop(): Promise<TrafficResult[]> {
    this.running = false;
    await Promise.all(this.workers);
    Traffic.started.delete(this);
    return this.results;
  }

  /** Waits until some result matches, and returns the first that does. */
  async waitFor(what: string, matches: (result: TrafficResult) => boolean, timeoutMs = 20_000): Promise<TrafficResult> {
    let found: TrafficResult | undefined;
    await until(
      what,
      () => {
        found = this.results.find(matches);
        return found !== undefined;
      },
      timeoutMs,
    );
    return found!;
  }

  private async work(): Promise<void> {
    const endAt = Date.now() + (this.options.maxMs ?? 60_000);
    while (this.running && Date.now() < endAt) {
      this.sequence += 1;
      const request = this.options.next(this.sequence);
      this.results.push(await this.send(request, `${this.options.idPrefix}-${this.sequence}`));
      // Pacing: a load with gaps between one worker's requests is about time by definition.
      if (this.options.pauseMs) await sleep(this.options.pauseMs);
    }
  }

  private async send(request: TrafficRequest, requestId: string): Promise<TrafficResult> {
    const startedAt = Date.now();
    const headers: Record<string, string> = { 'x-request-id': requestId, ...request.headers };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const result = { label: request.label, requestId, startedAt, contentType: '', text: '', body: undefined };
    try {
      const response = await fetch(request.url, {
        method: request.method ?? (request.body === undefined ? 'GET' : 'POST'),
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: AbortSignal.timeout(this.options.hangAfterMs),
      });
      const text = await response.text();
      const contentType = response.headers.get('content-type') ?? '';
      return { ...result, status: response.status, contentType, text, body: parsed(text), finishedAt: Date.now() };
    } catch (error) {
      const status = (error as Error).name === 'TimeoutError' ? 0 : -1;
      return { ...result, status, text: String((error as Error).name), finishedAt: Date.now() };
    }
  }
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Key → count, for the assertions and the run's figures. */
export function countBy<T>(items: T[], key: (item: T) => string | number): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

/** The longest a request of `results` took, ms. */
export const slowestMs = (results: TrafficResult[]): number =>
  Math.max(0, ...results.map((result) => result.finishedAt - result.startedAt));

export const statusCounts = (results: TrafficResult[]): Record<string, number> =>
  countBy(results, (result) => result.status);

/** Text that must never reach a client: stack frames, file paths, library and socket error text, peer addresses. */
const INTERNAL_TEXT =
  /\bat [\w.<>]+ \(|\/(?:srv|src|home|usr|work|tmp)\/|\.(?:go|js|ts|py):\d+|node_modules|goroutine|Traceback|ECONN|EPIPE|UND_ERR|fetch failed|SocketError|other side closed|terminated|127\.0\.0\.1|localhost:\d+|SyntaxError|Unexpected token/;

/** The documented error body (SPEC §4) and nothing internal in it; returns a complaint, or undefined when fine. */
export function errorBodyProblem(result: TrafficResult): string | undefined {
  const body = result.body as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return `not a JSON object: ${result.text.slice(0, 200)}`;
  if (!result.contentType.startsWith('application/json')) return `content-type ${result.contentType}`;
  for (const field of ['code', 'description', 'solution', 'link']) {
    if (typeof body[field] !== 'string' || body[field] === '')
      return `${field} missing in ${result.text.slice(0, 300)}`;
  }
  if (!('details' in body)) return `details missing in ${result.text.slice(0, 300)}`;
  if (!/^(Public|agentRetrieval)\.[A-Za-z]+(\.[A-Za-z]+)?$/.test(body.code as string))
    return `code ${String(body.code)}`;
  const leak = INTERNAL_TEXT.exec(result.text);
  return leak ? `internal text "${leak[0]}" in ${result.text.slice(0, 300)}` : undefined;
}
