import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

/**
 * `bytes` cryptographically random bytes as hex, cut from a pooled buffer refilled once per 4 KiB: ids
 * minted on every request (chat completion ids, session ids) cost one system call per few hundred ids,
 * as `crypto.randomUUID` does, instead of one each.
 */
export function randomHex(bytes: number): string {
  if (bytes > POOL_BYTES) throw new RangeError(`randomHex serves at most ${POOL_BYTES} bytes`);
  if (offset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  return hex;
}
