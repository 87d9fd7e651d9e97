/**
 * `a·b + c` rounded once, as a fused multiply-add instruction computes it. SQLite's `score += idf * tf`
 * is compiled to one on some builds, which changes the last bit of a multi-phrase bm25(); the top-k
 * evaluator needs the same bits to order ties as FTS5 does. Exact via BigInt (slow, microseconds), so it
 * is used only for the few rows that reach the top-k heap.
 */
export function fusedMultiplyAdd(a: number, b: number, c: number): number {
  const product = a * b;
  if (c === 0 || product === 0 || !Number.isFinite(product + c)) return product + c;
  const [ma, ea] = decompose(a);
  const [mb, eb] = decompose(b);
  const [mc, ec] = decompose(c);
  const ep = ea + eb;
  const e = Math.min(ep, ec);
  // Exponent gaps here are small (scores within a few orders of magnitude); a huge one would round anyway.
  if (Math.abs(ep - ec) > 900) return product + c;
  const sum = ((ma * mb) << BigInt(ep - e)) + (mc << BigInt(ec - e));
  // Number(bigint) rounds to nearest, ties to even; scaling by a power of two is then exact.
  return Number(sum) * 2 ** e;
}

/** x = m · 2^e with m an integer. */
function decompose(x: number): [bigint, number] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const sign = bits >> 63n === 1n ? -1n : 1n;
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const mantissa = bits & ((1n << 52n) - 1n);
  if (exponent === 0) return [sign * mantissa, -1074];
  return [sign * (mantissa | (1n << 52n)), exponent - 1075];
}
