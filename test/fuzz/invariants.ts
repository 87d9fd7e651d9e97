/** What no answer may carry: stack frames, source or install paths, SQL text or the database's name. */
const LEAKS: [string, RegExp][] = [
  ['stack trace', /\n\s+at \S.*\(|at [\w$.<>]+ \([^)]*:\d+:\d+\)/],
  ['file path', /\/work\/|node_modules|\.ts:\d*|\/home\/|\/usr\/lib\//],
  ['SQL text', /\bSELECT |\bINSERT INTO\b|\bCREATE (VIRTUAL )?TABLE\b/],
  ['database', /sqlite|SQLITE_|\bFTS5\b|fts5:/i],
];

/** Removes every quotation of the request's own strings (raw and JSON-escaped), so an echo is no leak. */
export function withoutEcho(text: string, strings: readonly string[]): string {
  let rest = text;
  const quoted = strings
    .filter((item) => item.length >= 4)
    .flatMap((item) => [item, JSON.stringify(item).slice(1, -1), encodeURIComponent(item.toWellFormed())])
    .sort((a, b) => b.length - a.length);
  for (const item of quoted) if (rest.includes(item)) rest = rest.split(item).join('');
  return rest;
}

/** The first leak found in an answer (after removing the request's own strings), or undefined. */
export function findLeak(text: string, strings: readonly string[]): string | undefined {
  const rest = withoutEcho(text, strings);
  for (const [name, pattern] of LEAKS) {
    const match = pattern.exec(rest);
    if (match) return `${name}: …${rest.slice(Math.max(0, match.index - 60), match.index + 80)}…`;
  }
  return undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const ERROR_BODY_KEYS = new Set(['code', 'description', 'solution', 'link', 'details']);

/** SPEC §4: `{code, description, solution, link, details}`, every text a string (details only when there are some). */
export function isErrorBody(body: unknown): boolean {
  if (!isRecord(body)) return false;
  if (Object.keys(body).some((key) => !ERROR_BODY_KEYS.has(key))) return false;
  return ['code', 'description', 'solution', 'link'].every((key) => typeof body[key] === 'string' && body[key] !== '');
}

/**
 * The routes of the OpenAI-compatible door (ChatController, SPEC §10), which declare OpenAI's error
 * shape; `path` is a route from the route table (a request that matches none answers the default body).
 */
export function isChatRoute(path: string): boolean {
  return path === '/api/chat/completions' || path.startsWith('/v1/');
}

/** The OpenAI error shape of the chat routes (SPEC §10): `{error: {message, type, code}}`. */
export function isChatErrorBody(body: unknown): boolean {
  if (!isRecord(body) || !isRecord(body.error)) return false;
  const { message, type, code } = body.error;
  return typeof message === 'string' && typeof type === 'string' && (typeof code === 'string' || code === null);
}

/** A JSON-RPC 2.0 error envelope (the MCP transport answers some HTTP errors this way). */
export function isJsonRpcError(body: unknown): boolean {
  if (!isRecord(body) || body.jsonrpc !== '2.0' || !isRecord(body.error)) return false;
  return typeof body.error.code === 'number' && typeof body.error.message === 'string';
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
