import fc from 'fast-check';
import { MCP_PATH } from '../support/mcp-clients';
import { NoAnswer, RawHttpClient, RawRequest, RawResponse } from '../support/raw-http';
import { fillTemplate, Route, templateParameters } from '../support/router-routes';
import { CaseOutcome } from './fuzz-report';
import { CASE_DEADLINE_MS, printable } from './fuzz-run';
import { hostileString, hostileUrlText } from './hostile-input';
import { findLeak, isChatErrorBody, isChatRoute, isErrorBody, isJsonRpcError, parseJson } from './invariants';
import { FuzzBody, fuzzBody } from './request-bodies';
import { logCase } from './fuzz-run';

export interface RestCase {
  request: RawRequest;
  body?: FuzzBody;
  /** Strings the request carries in its URL and headers (decoded), for telling an echo from a leak. */
  strings: string[];
}

const PLAUSIBLE_PARAMS: Record<string, string[]> = {
  mcp_id: ['clinic_tools', 'k8s_tools'],
  tool_name: ['echo', 'create_prescription', 'restart_deployment'],
  name: ['kn_search', 'list_files', 'read_file', 'write_file', 'execute_action', 'nope'],
  box_id: ['clinic_toolbox'],
};

const QUERY_KEYS = ['kn_id', 'ot_id', 'response_format', 'include_logic_params', 'session_id', 'limit', 'query'];

/** A header value Node will send: characters outside Latin-1 become `?` (CR/LF are the security suite's job). */
const headerSafe = (text: string): string => text.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?').slice(0, 2000);

const headerValue = fc.oneof(hostileString.map(headerSafe), fc.constantFrom('clinic', 'en-US', 'zh_cn', '*', ''));

const hostileHeaders: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    'x-kn-id': headerValue,
    'x-language': headerValue,
    'accept-language': headerValue,
    'x-request-id': headerValue,
    accept: fc.constantFrom('application/json', 'application/toon', 'text/event-stream', '*/*', 'text/html;q=0'),
    'x-account-id': headerValue,
    'x-account-type': fc.constantFrom('user', 'app', 'anonymous', 'admin', ''),
    'x-weknora-api-key': headerValue,
    'x-weknora-kb-ids': headerValue,
  },
  { requiredKeys: [] },
);

const queryString: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...QUERY_KEYS), hostileUrlText),
      fc.oneof(hostileUrlText, fc.constantFrom('clinic', 'json', 'toon', 'true', '5', '')),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([key, value]) => `${key}=${value}`).join('&')}`));

/** Half the requests carry no query string, so the body decides how deep they get. */
const maybeQueryString = fc.oneof(fc.constant(''), queryString);

const paramValue = (name: string): fc.Arbitrary<string> =>
  fc.oneof(
    { arbitrary: hostileUrlText, weight: 3 },
    { arbitrary: fc.constantFrom(...(PLAUSIBLE_PARAMS[name] ?? ['x'])), weight: 1 },
  );

const MCP_FIELDS = ['jsonrpc', 'id', 'method', 'params'];

/** Body fields of routes the OpenAPI document leaves out (the OpenAI-compatible door, the proxies' free bodies). */
const UNDOCUMENTED_FIELDS: [RegExp, string[]][] = [
  [
    /chat\/completions$/,
    [
      'messages',
      'model',
      'tools',
      'tool_choice',
      'stream',
      'temperature',
      'max_tokens',
      'session_id',
      'kn_id',
      'max_tool_rounds',
      'top_p',
      'stop',
      'seed',
      'response_format',
      'max_completion_tokens',
      'parallel_tool_calls',
      'user',
      'n',
      'logprobs',
      'stream_options',
    ],
  ],
  [/^\/v1\/tools\/:name\/call$/, ['arguments', 'session_id', 'kn_id']],
  [/\/mcp\/proxy\//, ['message', 'drug_id', 'deployment', 'namespace']],
  [/\/tool-box\//, ['header', 'path', 'query', 'body']],
];

/** The body fields a route reads: from its OpenAPI schema, JSON-RPC's for the MCP endpoint, else as listed above. */
export function routeFields(route: Route, openApiFields: Map<string, string[]>): string[] {
  if (route.template.startsWith(MCP_PATH)) return MCP_FIELDS;
  const documented = openApiFields.get(`${route.method} ${route.template}`) ?? [];
  if (documented.length > 0) return documented;
  return UNDOCUMENTED_FIELDS.find(([pattern]) => pattern.test(route.template))?.[1] ?? [];
}

/** One request against a route: hostile path parameters, query, headers and body. */
export function restCase(route: Route, fields: string[], bodyLimit: number): fc.Arbitrary<RestCase> {
  const names = templateParameters(route.template);
  const withBody = route.method !== 'GET' && route.method !== 'HEAD';
  const body = withBody ? fuzzBody(fields, bodyLimit) : fc.option(fuzzBody(fields, bodyLimit), { freq: 8 });
  return fc
    .record({
      params: fc.tuple(...names.map(paramValue)),
      query: maybeQueryString,
      headers: hostileHeaders,
      body: body.map((value) => value ?? undefined),
    })
    .map(({ params, query, headers, body: generated }) => {
      const path = fillTemplate(route.template, (name) => params[names.indexOf(name)]) + query;
      const sent: Record<string, string> = { ...headers };
      if (route.template.startsWith(MCP_PATH)) sent.accept = 'application/json, text/event-stream';
      if (generated?.contentType) sent['content-type'] = generated.contentType;
      const strings = [...params, query, ...Object.values(headers)].flatMap(decodedForms);
      const built: RestCase = {
        request: { method: route.method, path, headers: sent, body: generated?.bytes },
        body: generated,
        strings,
      };
      return printable(built, describeCase);
    });
}

function decodedForms(text: string): string[] {
  try {
    return [text, decodeURIComponent(text)];
  } catch {
    return [text];
  }
}

/** Long generated text shown as its start and its length. */
const clip = (text: string): string => (text.length <= 160 ? text : `${text.slice(0, 160)}…(${text.length} chars)`);

function describeCase(value: RestCase): string {
  const bytes = value.request.body;
  const body = bytes
    ? ` body(${value.body?.kind}, ${bytes.length} B): ${clip(bytes.subarray(0, 400).toString('utf8'))}`
    : '';
  const headers = Object.entries(value.request.headers ?? {}).map(([name, text]) => `${name}: ${clip(text)}`);
  return `${value.request.method} ${clip(value.request.path)} headers {${headers.join('; ')}}${body}`;
}

/** What an answer documents on purpose: `/health` names the indexed code root for operators (README, CKB). */
function withoutDisclosures(route: Route, text: string): string {
  return route.template === '/health' ? text.replace(/"code_root":"[^"]*"/g, '') : text;
}

/** 5xx the service documents for a case the fuzzer can cause (SPEC §3, §4). */
function documentedServerError(route: Route, response: RawResponse, body: unknown): boolean {
  const code = (body as { code?: string } | undefined)?.code;
  // Ontology build jobs exist only on KWeaver: 501 on the embedded backend.
  if (response.status === 501 && /full_(build_ontology|ontology_building_status)/.test(route.template)) return true;
  // Saturated search workers: 503 with Retry-After rather than an unbounded queue.
  return (
    response.status === 503 &&
    code === 'agentRetrieval.ServiceUnavailable.SearchOverloaded' &&
    !!response.headers['retry-after']
  );
}

/** Sends one case and checks every invariant; the outcome goes to the report, a violation throws. */
export async function runRestCase(
  client: RawHttpClient,
  route: Route,
  input: RestCase,
  record: (outcome: CaseOutcome) => void,
): Promise<void> {
  let response: RawResponse;
  try {
    response = await client.send(input.request, CASE_DEADLINE_MS);
  } catch (error) {
    if (!(error instanceof NoAnswer)) throw error;
    // A body over the limit is answered 413 before it is read; the socket may close under the writer.
    if (error.reason === 'connection' && input.body?.kind === 'huge-over') return record({ status: 'reset' });
    record({ status: error.reason, hang: error.reason === 'timeout' });
    throw error;
  }
  const body = parseJson(response.text);
  logCase(`${route.method} ${route.template}`, response.status, input.body?.kind, response.text);
  const fiveXx = response.status >= 500 && !documentedServerError(route, response, body);
  const leak = findLeak(withoutDisclosures(route, response.text), [...(input.body?.strings ?? []), ...input.strings]);
  const badShape =
    response.status >= 400 &&
    response.status < 500 &&
    !hasDocumentedShape(route, input.request.path, response.status, body);
  record({ status: String(response.status), fiveXx, leak: !!leak, badShape });
  if (fiveXx || leak || badShape) {
    const why = fiveXx
      ? `status ${response.status}`
      : leak
        ? `leak (${leak})`
        : 'error body not in the documented shape';
    throw new Error(`${why}: ${response.status} ${response.text.slice(0, 600)}`);
  }
}

/** Refusals made before any route matched (or because none did): they have no declared shape. */
const BEFORE_ROUTING = new Set([
  'Public.BadRequest',
  'Public.NotFound',
  'Public.MethodNotAllowed',
  'agentRetrieval.Forbidden.HostNotAllowed',
]);

/**
 * The filter answers in the shape the matched route declares: OpenAI's on the chat routes, JSON-RPC's
 * for the MCP endpoint's body refusals. A request refused before routing (a malformed path, Node's 431
 * for headers over its limit) or matching no route (a hostile parameter) gets the standard body.
 */
function hasDocumentedShape(route: Route, requestPath: string, status: number, body: unknown): boolean {
  const path = requestPath.split('?')[0];
  if (status === 431) return isErrorBody(body);
  if (isChatRoute(route.template)) {
    const code = (body as { code?: unknown } | undefined)?.code;
    return isChatErrorBody(body) || (isErrorBody(body) && BEFORE_ROUTING.has(String(code)));
  }
  if (path.startsWith(MCP_PATH)) return isErrorBody(body) || isJsonRpcError(body);
  return isErrorBody(body);
}
