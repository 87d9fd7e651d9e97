import { Logger, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';

/** Redis answers in well under a millisecond; anything slower than this is treated as an outage. */
const COMMAND_TIMEOUT_MS = 500;
const CONNECT_TIMEOUT_MS = 1000;
/** After a failed command, Redis is left alone this long, so a hung server costs one timeout, not one per request. */
const FAILURE_BACKOFF_MS = 1000;

/**
 * The one Redis connection of a process, for the state replicas share (CKB state, introspection cache,
 * rate limits; SPEC §1). Commands fail fast instead of queueing while Redis is unreachable, and every
 * caller names an in-process fallback, so a Redis outage never fails or stalls a request. An outage is
 * logged once, when it starts; ioredis keeps reconnecting and the first command that succeeds again
 * ends it.
 */
export class SharedRedis implements OnApplicationShutdown {
  private readonly client?: Redis;
  private readonly logger = new Logger('SharedRedis');
  /** Settles when the first connection attempt did (ready or failed), so start-up does not skip Redis. */
  private readonly firstAttempt: Promise<void>;
  private available = true;
  private backoffUntil = 0;
  private closing = false;

  constructor(
    url: string | undefined,
    private readonly now: () => number = Date.now,
  ) {
    if (!url) {
      this.firstAttempt = Promise.resolve();
      return;
    }
    this.client = new Redis(url, {
      connectTimeout: CONNECT_TIMEOUT_MS,
      commandTimeout: COMMAND_TIMEOUT_MS,
      enableOfflineQueue: false,
      // With no offline queue, a command in flight when the connection drops is rejected at once.
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      retryStrategy: (attempt) => Math.min(100 * attempt, 2000),
    });
    this.firstAttempt = new Promise<void>((resolve) => {
      this.client!.once('ready', resolve);
      this.client!.once('error', () => resolve());
      setTimeout(resolve, CONNECT_TIMEOUT_MS).unref();
    });
    // Connection errors arrive as events (without a listener they would crash the process).
    this.client.on('error', (error: Error) => this.markUnavailable(error.message));
    this.client.on('close', () => this.markUnavailable('connection closed'));
  }

  /** True when REDIS_URL is set; false means every caller runs on its in-process state alone. */
  get enabled(): boolean {
    return this.client !== undefined;
  }

  /**
   * Runs `operation` on Redis, or `fallback` when Redis is not configured, not connected, backing off
   * after a failure, or when the operation fails. Never throws a Redis error.
   */
  async run<T>(operation: (client: Redis) => Promise<T>, fallback: () => T | Promise<T>): Promise<T> {
    if (!this.client) return fallback();
    await this.firstAttempt;
    if (this.client.status !== 'ready' || this.now() < this.backoffUntil) return fallback();
    let result: T;
    try {
      result = await operation(this.client);
    } catch (error) {
      this.backoffUntil = this.now() + FAILURE_BACKOFF_MS;
      this.markUnavailable(error instanceof Error ? error.message : String(error));
      return fallback();
    }
    this.markAvailable();
    return result;
  }

  onApplicationShutdown(): Promise<void> {
    return this.close();
  }

  close(): Promise<void> {
    if (this.client && !this.closing) {
      this.closing = true;
      this.client.disconnect();
    }
    return Promise.resolve();
  }

  private markUnavailable(reason: string): void {
    if (!this.available || this.closing) return;
    this.available = false;
    this.logger.warn(`Redis unavailable (${reason}); shared state falls back to this process until it is back`);
  }

  private markAvailable(): void {
    if (this.available) return;
    this.available = true;
    this.logger.log('Redis reachable again; shared state resumes');
  }
}
