import { AsyncLocalStorage } from 'node:async_hooks';
import { Language } from '../../config/i18n.config';
import { AccountContext } from '../auth/account';

/** Per-request facts every layer may need without threading them through each call. */
export interface RequestContext {
  requestId: string;
  language: Language;
  account?: AccountContext;
  /** Raw bearer token, only for upstreams that require it; never logged. */
  token?: string;
  /** MCP (2025 leg): this POST is answered as an SSE stream, so its call may send the client a request. */
  answersAsStream?: boolean;
}

// The only AsyncLocalStorage of a request: on Node 20 every store in use adds to the cost of every promise
// the process makes, so per-request facts go here rather than into a storage of their own.

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}
