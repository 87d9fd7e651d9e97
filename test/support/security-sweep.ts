import type { ServerResponse } from 'node:http';
import { HttpPeer, RecordedRequest, sendJson } from './http-peer';

/** Credentials, secrets and headers of the security sweep (test/security.e2e-spec.ts). */
export const GOOD_TOKEN = 'sweep-good-token-3f9c1e7a55';
export const BAD_TOKEN = 'sweep-bad-token-77a1c4';
export const LONG_TOKEN = `sweep-long-${'L'.repeat(10 * 1024)}`;
export const BASIC = 'Basic c3dlZXA6c3dlZXAtYmFzaWMtcGFzcw==';
export const WEKNORA_KEY = 'sweep-weknora-key-5b2e90';
export const LLM_KEY = 'sweep-llm-key-9d41aa';
export const COOKIE = 'session=sweep-cookie-c0ffee42';
export const API_KEY = 'sweep-x-api-key-1234ab';
export const CUSTOM = 'sweep-custom-secret-8812';
export const PROXY_AUTH = 'Basic c3dlZXAtcHJveHktc2VjcmV0';

/** What must never appear in a log line or reach an upstream it was not meant for. */
export const SECRETS = [
  GOOD_TOKEN,
  BAD_TOKEN,
  LONG_TOKEN.slice(0, 48),
  BASIC.slice(6),
  WEKNORA_KEY,
  LLM_KEY,
  COOKIE,
  API_KEY,
  CUSTOM,
  PROXY_AUTH.slice(6),
];

/** Wrong credentials, each with the headers that carry it (SPEC §5: Authorization, then X-Authorization). */
export const BAD_CREDENTIALS: [string, Record<string, string>][] = [
  ['no token', {}],
  ['a bad token', { authorization: `Bearer ${BAD_TOKEN}` }],
  ['Bearer with no value', { authorization: 'Bearer' }],
  ['Bearer and spaces', { authorization: 'Bearer    ' }],
  ['Basic credentials', { authorization: BASIC }],
  ['a 10 KB token', { authorization: `Bearer ${LONG_TOKEN}` }],
  ['a bad X-Authorization', { 'x-authorization': BAD_TOKEN }],
  ['the token escaped as CR/LF text', { authorization: `Bearer ${GOOD_TOKEN}%0D%0AX-Injected:%201` }],
];

/** CR/LF inside the Authorization value: no HTTP client sends these, so they go over a raw socket. */
export const CRLF_HEADERS = [
  `Authorization: Bearer ${GOOD_TOKEN}\r\n\tfolded`,
  `Authorization: Bearer ${BAD_TOKEN}\rX-Injected: 1`,
  `Authorization: Bearer ${BAD_TOKEN}\nX-Injected: 1`,
  `Authorization: Bearer\r\n ${GOOD_TOKEN}`,
];

/** Headers a caller might send that no upstream may see (SPEC §5 forwards an allow-list only). */
export const FOREIGN_HEADERS: Record<string, string> = {
  cookie: COOKIE,
  'x-forwarded-for': '203.0.113.9',
  'x-forwarded-host': 'evil.example.com',
  'x-forwarded-proto': 'https',
  'x-real-ip': '203.0.113.9',
  'x-api-key': API_KEY,
  'x-authorization': `Bearer ${GOOD_TOKEN}`,
  'proxy-authorization': PROXY_AUTH,
  'x-custom-secret': CUSTOM,
  'x-account-id': 'spoofed-account',
  'x-account-type': 'app',
};

/** Per upstream: the headers it may receive beyond what HTTP itself needs. */
export const ALLOWED_UPSTREAM = {
  kweaver: ['x-account-id', 'x-account-type', 'x-kn-id', 'x-request-id', 'x-http-method-override'],
  weknora: ['x-api-key', 'x-tenant-id', 'x-request-id'],
  llm: ['authorization', 'x-request-id'],
};
export const TRANSPORT = [
  'host',
  'connection',
  'content-type',
  'content-length',
  'accept',
  'accept-encoding',
  'accept-language',
  'user-agent',
  'sec-fetch-mode',
  'transfer-encoding',
];

/** Plays Ory Hydra's introspection endpoint: GOOD_TOKEN is active, everything else is not. */
export function hydra(): HttpPeer {
  return new HttpPeer((recorded, response) => {
    const token = new URLSearchParams(recorded.body).get('token');
    if (token !== GOOD_TOKEN) return sendJson(response, 200, { active: false });
    sendJson(response, 200, { active: true, sub: 'sweeper', client_id: 'web', ext: { visitor_type: 'realname' } });
  });
}

/** Answers every request with one JSON body (the sweep reads what the peer received, not what it said). */
export const answering = (body: unknown) =>
  new HttpPeer((_recorded: RecordedRequest, response: ServerResponse) => sendJson(response, 200, body));
