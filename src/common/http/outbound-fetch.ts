import { fetch, type RequestInit, type Response } from 'undici';

export type OutboundInit = Omit<RequestInit, 'signal'>;
export type OutboundResponse = Response;

/**
 * One outbound HTTP exchange under one deadline: the connection, the response headers and whatever
 * `read` does with the body. When the deadline passes, the call fails with a `TimeoutError`
 * DOMException (see classifyFetchFailure) wherever it is, and its connection is closed.
 *
 * This is `fetch` from the undici package, never Node's global one. Node 20's and 22's bundled undici
 * (6.x) let the Request of a `redirect: 'error'` call be collected while its body is still read; the
 * caller's signal then reaches nothing, so a deadline that passes mid-body after a garbage collection
 * never ends the call (nodejs/undici#4627, fixed in 7.x by keeping the Request alive for the whole
 * fetch). The deadline is a timer of our own, cleared when the exchange ends, rather than
 * `AbortSignal.timeout`, whose timer outlives every call it was made for.
 */
export async function fetchWithin<T>(
  url: string | URL,
  init: OutboundInit,
  timeoutMs: number,
  read: (response: OutboundResponse) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')),
    timeoutMs,
  );
  timer.unref();
  try {
    const response = await fetch(url, { ...init, signal: controller.signal });
    return await read(response);
  } finally {
    clearTimeout(timer);
  }
}
