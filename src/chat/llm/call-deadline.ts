/**
 * The AbortController of one request to the model endpoint. It aborts when the caller's signal aborts or
 * when the armed deadline passes; disposing it only stops listening (the caller releases the connection).
 */
export class CallDeadline {
  /** The deadline, in ms, that passed, when one did. */
  expiredAfterMs: number | undefined;
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private readonly abortFromCaller = (): void => this.controller.abort();

  constructor(private readonly caller?: AbortSignal) {
    if (caller?.aborted) this.controller.abort();
    else caller?.addEventListener('abort', this.abortFromCaller, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get callerAborted(): boolean {
    return this.caller?.aborted === true;
  }

  /** Starts, or restarts, the deadline of the wait that is about to begin. */
  arm(ms: number): void {
    this.disarm();
    this.timer = setTimeout(() => {
      this.expiredAfterMs = ms;
      this.controller.abort();
    }, ms);
  }

  disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Ends the request: stops the timer and detaches from the caller. */
  dispose(): void {
    this.disarm();
    this.caller?.removeEventListener('abort', this.abortFromCaller);
  }
}
