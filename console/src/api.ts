/** The service's own public routes, called with the caller's token: the console has no API of its own. */
export const PUBLIC = '/api/agent-retrieval/v1';
const TOKEN_KEY = 'agent-retrieval.console.token';

export type Json = Record<string, unknown>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

let language = 'en-US';
export const setApiLanguage = (value: string): void => {
  language = value;
};

export const token = (): string | null => sessionStorage.getItem(TOKEN_KEY);
export const saveToken = (value: string): void => sessionStorage.setItem(TOKEN_KEY, value);
export const forgetToken = (): void => sessionStorage.removeItem(TOKEN_KEY);

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const bearer = token();
  return {
    accept: 'application/json',
    'accept-language': language,
    ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    ...extra,
  };
}

async function failure(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => ({}))) as Json;
  const error = (body.error ?? body) as Json;
  const code = String(error.code ?? response.status);
  const text = [error.description, error.details, error.message].filter((part) => typeof part === 'string');
  return new ApiError(response.status, code, text.join(' — ') || response.statusText);
}

/** GET or POST a JSON route of this service; a non-2xx answer becomes an ApiError with the service's words. */
export async function call<T = Json>(path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const response = await fetch(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: headers(body === undefined ? {} : { 'content-type': 'application/json' }),
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
}

/** A capability's REST twin under the public prefix. */
export const rest = <T = Json>(route: string, body?: unknown): Promise<T> => call<T>(`${PUBLIC}/${route}`, body);

/** Any capability through the tool API (`POST /v1/tools/{name}/call`), its JSON answer parsed. */
export async function tool<T = Json>(name: string, args: Json): Promise<T> {
  const answer = await call<{ content: string }>(`/v1/tools/${encodeURIComponent(name)}/call`, {
    arguments: { ...args, response_format: 'json' },
  });
  return JSON.parse(answer.content) as T;
}

/** Server-sent events of a streamed chat completion, each frame's JSON handed to `onFrame`. */
export async function streamChat(body: Json, onFrame: (frame: Json) => void, signal: AbortSignal): Promise<void> {
  const response = await fetch('/v1/chat/completions', {
    method: 'POST',
    headers: headers({ 'content-type': 'application/json', accept: 'text/event-stream' }),
    body: JSON.stringify({ ...body, stream: true }),
    signal,
  });
  if (!response.ok || !response.body) throw await failure(response);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      for (const line of event.split('\n')) {
        const data = line.startsWith('data:') ? line.slice(5).trim() : '';
        if (data && data !== '[DONE]') onFrame(JSON.parse(data) as Json);
      }
    }
  }
}
