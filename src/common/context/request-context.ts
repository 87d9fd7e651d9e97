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

/**
 * A request's context travels two ways:
 * - **Explicitly**, on the request object (`requestContextOf`): always. Whatever holds the request (guards,
 *   filters, controllers, the doors' call scopes) reads it there.
 * - **Ambiently**, through an AsyncLocalStorage (`currentRequestContext`): only when a configured part
 *   reads it below the request's reach: an upstream adapter that forwards the caller's identity and
 *   token (KWeaver, WeKnora), the request id on every log line (tracing or debug logging; see
 *   readsAmbientRequestContext). On Node 20 an AsyncLocalStorage in use puts a hook on every promise the
 *   process makes (about a tenth of an MCP call's CPU, `bench/mcp.js`), so a service that needs none of
 *   those pays nothing for it. Each application says at start-up whether it needs it
 *   (`declareAmbientRequestContext`); it is on when any application of the process does, and in code
 *   that never says (tests, tools).
 */
const storage = new AsyncLocalStorage<RequestContext>();
/** What the process's applications declared: undefined until one does; true once any needs ambient contexts. */
let needed: boolean | undefined;

/** Where the context rides on a request object (a symbol: no header or body field can collide with it). */
const ON_REQUEST = Symbol('agentRetrieval.requestContext');

type Carrier = { [ON_REQUEST]?: RequestContext };

/** An application's need of ambient contexts (see above); when none needs them, the storage's promise hooks stop. */
export function declareAmbientRequestContext(need: boolean): void {
  needed = needed === true || need;
  if (!needed) storage.disable();
}

const ambient = (): boolean => needed !== false;

/** Runs `fn` with `context` as the ambient request context, when contexts travel ambiently. */
export function runWithRequestContext<T>(context: RequestContext, fn: () => T): T {
  return ambient() ? storage.run(context, fn) : fn();
}

/** The ambient request context: undefined outside a request, and always when contexts do not travel ambiently. */
export function currentRequestContext(): RequestContext | undefined {
  return ambient() ? storage.getStore() : undefined;
}

/** Gives a request its context (the request middleware does, first thing). */
export function attachRequestContext(request: object, context: RequestContext): void {
  (request as Carrier)[ON_REQUEST] = context;
}

/** The context the request middleware gave this request; undefined for one it never saw. */
export function requestContextOf(request: object | undefined): RequestContext | undefined {
  return request === undefined ? undefined : (request as Carrier)[ON_REQUEST];
}
