import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `check` every 50 ms until it holds, failing with `what` after `timeoutMs`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await sleep(50);
  }
}
