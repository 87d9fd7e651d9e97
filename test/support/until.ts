import { setTimeout as sleep } from 'node:timers/promises';

const POLL_MS = 50;

/** Polls `check` every 50 ms until it holds, failing with `what` after `timeoutMs`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  await waitFor(what, async () => ((await check()) ? true : undefined), timeoutMs);
}

/** Polls `find` every 50 ms until it returns a value, failing with `what` after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  find: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await sleep(POLL_MS);
  }
}
