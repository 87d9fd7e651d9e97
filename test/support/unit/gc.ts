import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** `gc()` without `node --expose-gc`: V8 lets the flag be set at run time, and a fresh context then sees it. */
export function exposeGc(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
