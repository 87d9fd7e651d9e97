import type { HumanChannel } from '../actionrecall/action-approval';
import type { InjectionToken } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { z } from 'zod';
import type { AccountContext } from '../common/auth/account';
import type { ErrorBody } from '../common/errors/app.exception';
import type { Language } from '../config/i18n.config';

/** Where a call came in (SPEC §12): the audit and the metrics name it. */
export type Door = 'rest' | 'mcp' | 'chat' | 'tool-api' | 'proxy';

/** What a capability may do, which decides the policy defaults and the doors that offer it. */
export type GovernanceClass = 'read' | 'act' | 'workspace';

/** A text in every language the service speaks. */
export type Localized = Readonly<Record<Language, string>>;

export interface CapabilityAnnotations {
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean;
}

/** Only reads what this service owns or indexes: idempotent, nothing outside changes. */
export const READ_ONLY: CapabilityAnnotations = Object.freeze({
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
});

/** Changes the world outside this service (an action's tool may create, modify or delete). */
export const DESTRUCTIVE: CapabilityAnnotations = Object.freeze({
  readOnly: false,
  destructive: true,
  idempotent: false,
  openWorld: true,
});

/** The REST twin of a capability: one route under the prefixes it is served on. */
export interface RestRoute {
  method: 'GET' | 'POST';
  /** After the prefix, e.g. `kn/kn_search`. */
  path: string;
  /** `both` (default): public and private prefix; `public` or `private`: only that one. */
  prefixes?: 'both' | 'public' | 'private';
  /** Input fields the query string may also carry (the body wins), with how to read their text. */
  query?: Readonly<Record<string, 'string' | 'boolean' | 'integer'>>;
  /** The success status (default 200). */
  status?: 200 | 201;
  /** Request headers the route reads, documented in OpenAPI. */
  headers?: readonly { name: string; description: string }[];
}

/**
 * How a result becomes the text an MCP client or the chat model reads: `toon` (default; TOON unless
 * `response_format: json`), `json` (always JSON; response_format is ignored), or the capability's own
 * words for a result and for a failure.
 */
export type TextRendering = 'toon' | 'json' | OwnText;

export interface OwnText {
  result(value: Record<string, unknown>): string[];
  /** The line for a failure; the error body's code still goes to `_meta`. */
  failure(error: unknown, body: ErrorBody): string;
}

/**
 * What must exist before a connection is offered a capability over MCP (tools/list) and may call it:
 * `network` a knowledge network (the connection's X-Kn-ID, or for one call the kn_id argument), `no-network`
 * none yet (discovery), `actions` a network with action types, `code-index` indexed code, `knowledge-base` a
 * knowledge base.
 */
export type CapabilityNeed = 'network' | 'no-network' | 'actions' | 'code-index' | 'knowledge-base';

/** The chat session a call belongs to (chat and tool-api doors): its id and its workspace. */
export interface CapabilitySession {
  id: string;
  workspace(): Promise<unknown>;
}

/** Everything a capability's `run` learns about its call besides the input. */
export interface CapabilityContext {
  door: Door;
  principal: AccountContext;
  /** The network the call is about (`''` for capabilities that need none). */
  knId: string;
  /** The connection's headers: X-WeKnora-* and the caller's language live here. */
  headers: IncomingHttpHeaders;
  language: Language;
  /** The request's id (X-Request-Id), for an upstream call that passes it on. */
  requestId?: string;
  signal?: AbortSignal;
  /** The chat session (chat and tool-api doors). */
  session?: CapabilitySession;
  /** Whether the caller may see a network (a list leaves the others out). */
  seesNetwork(knId: string): boolean;
  /** MCP: the way to ask the human behind the client, when it has one (execute_action's approval). */
  human?: HumanChannel;
  /** MCP tasks: reports how far a long job is (`tasks/get` shows it). */
  progress?: ProgressReporter;
}

/** How a long job says how far it is: `done` of `total` steps (total unknown: omit it) and a short message. */
export type ProgressReporter = (progress: { done: number; total?: number; message?: string }) => void;

/**
 * One capability, defined once (SPEC §12): the tool at every door and its REST twin. `run` receives the
 * service it declares, resolved from the application once at start-up.
 */
export interface CapabilityDefinition<TInput extends object = object, TOutput = unknown, TService = unknown> {
  name: string;
  title: Localized;
  description: Localized;
  governance: GovernanceClass;
  annotations: CapabilityAnnotations;
  /** `required`: the call is about one knowledge network (kn_id argument over X-Kn-ID). */
  network: 'required' | 'none';
  /** What must exist for the capability to be offered (undefined: always offered). */
  needs?: CapabilityNeed;
  /** The full input schema, as every door validates and advertises it. */
  input: z.ZodType<TInput>;
  /** Advertised instead of `input`'s JSON Schema: an operator tool's own schema, which its server validates. */
  inputJsonSchema?: Record<string, unknown>;
  /**
   * How raw arguments become the argument object (default: a JSON object, its null values dropped as
   * absent); an operator tool passes its arguments on as they are, refusing only a non-object.
   */
  readInput?: (raw: unknown) => Record<string, unknown>;
  output: z.ZodType;
  /** Other names an argument is accepted under at every door (alias → name), never advertised. */
  aliases?: Readonly<Record<string, string>>;
  doors: readonly Door[];
  rest?: RestRoute;
  text: TextRendering;
  service: InjectionToken;
  /**
   * A job that usually outlives MCP_TASK_THRESHOLD_MS (a network reload): an MCP client that can hold
   * a task gets one at once. Its `run` should stop on `context.signal` and report `context.progress`.
   */
  runsLong?: boolean;
  run(service: TService, input: TInput, context: CapabilityContext): Promise<TOutput>;
}

/** What a feature writes for a capability; `defineCapability` completes it into a definition. */
export interface CapabilitySpec<TShape extends z.ZodRawShape, TOutput, TService> extends Pick<
  CapabilityDefinition,
  'name' | 'title' | 'description' | 'governance' | 'annotations' | 'network' | 'aliases' | 'runsLong'
> {
  /**
   * Default: `network` when the network is required. `nothing`: a discovery capability, offered also to a
   * connection without a network (the call then names one with kn_id).
   */
  needs?: CapabilityNeed | 'nothing';
  /** The capability's own arguments; `kn_id` and `response_format` are added here. */
  arguments: TShape;
  /** A complete input schema to use as it is instead (a seed fixes it word for word); `arguments` is then `{}`. */
  input?: z.ZodType<object>;
  output: z.ZodType;
  /** Default: MCP, chat and the tool API (plus REST when `rest` is given); workspace: chat and tool API. */
  doors?: readonly Door[];
  rest?: RestRoute;
  text?: TextRendering;
  service: InjectionToken<TService> | (abstract new (...args: never[]) => TService);
  run(service: TService, input: z.output<z.ZodObject<TShape>>, context: CapabilityContext): Promise<TOutput>;
}

/** Every network capability accepts kn_id; it overrides the X-Kn-ID header for this one call (SPEC §3). */
export const KN_ID_ARGUMENT = z.string().optional().describe('Network id (default: X-Kn-ID)');

const responseFormat = (description: string) => z.enum(['json', 'toon']).optional().describe(description);

const RESPONSE_FORMAT = responseFormat('Text rendering (structuredContent is always JSON)');

const IGNORED_RESPONSE_FORMAT = responseFormat('Ignored: always JSON');

/** Builds a catalog entry: the full input schema (own arguments, kn_id, response_format) and the doors. */
export function defineCapability<TShape extends z.ZodRawShape, TOutput, TService>(
  spec: CapabilitySpec<TShape, TOutput, TService>,
): CapabilityDefinition<z.output<z.ZodObject<TShape>>, TOutput, TService> {
  const text = spec.text ?? 'toon';
  const input =
    spec.input ??
    z.looseObject({
      ...spec.arguments,
      ...(spec.network === 'required' ? { kn_id: KN_ID_ARGUMENT } : {}),
      ...(typeof text === 'string'
        ? { response_format: text === 'toon' ? RESPONSE_FORMAT : IGNORED_RESPONSE_FORMAT }
        : {}),
    });
  const doors =
    spec.doors ??
    (spec.governance === 'workspace'
      ? (['chat', 'tool-api'] as const)
      : ([...(spec.rest ? (['rest'] as const) : []), 'mcp', 'chat', 'tool-api'] as const));
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    governance: spec.governance,
    annotations: spec.annotations,
    network: spec.network,
    needs: spec.needs === 'nothing' ? undefined : (spec.needs ?? (spec.network === 'required' ? 'network' : undefined)),
    input: input as z.ZodType<z.output<z.ZodObject<TShape>>>,
    output: spec.output,
    aliases: spec.aliases,
    doors,
    rest: spec.rest,
    text,
    runsLong: spec.runsLong,
    service: spec.service as InjectionToken,
    run: spec.run,
  };
}
