import type { ServerResponse } from 'node:http';
import { RecordedRequest, sendJson } from './http-peer';

/** How a KWeaver stand-in misbehaves; each has the one status the service must answer with. */
export const UPSTREAM_FAULTS = {
  /** Never answers: the service's own deadline must answer. */
  stall: 504,
  /** A plain-text 500 with a Go panic in it (not bkn-backend's error shape, which would be passed through). */
  error500: 502,
  /** Closes the connection without a word. */
  reset: 502,
  /** 200 `application/json` whose JSON is cut short. */
  malformedJson: 502,
  /** 200 with an HTML page (a proxy's error page): the wrong content type and no JSON. */
  wrongContentType: 502,
  /** Headers and half the JSON, then the connection closes. */
  resetMidBody: 502,
  /** Headers and half the JSON, then nothing more. */
  stallMidBody: 504,
} as const;
export type UpstreamFault = keyof typeof UPSTREAM_FAULTS;

const GO_PANIC =
  'panic: runtime error: invalid memory address\n\ngoroutine 17 [running]:\n' +
  'main.(*Handler).Query(...)\n\t/srv/ontology-query/handler.go:42 +0x1d\n';
const HALF_JSON = '{"datas": [{"patient_id": "P0001", "name": ';

/**
 * A KWeaver peer (ontology-query or bkn-backend) whose behaviour the test switches while traffic runs.
 * It records which mode answered each X-Request-Id, so every response can be held to its fault's status.
 */
export class FaultyUpstream {
  mode: UpstreamFault | 'ok' = 'ok';
  readonly modesByRequest = new Map<string, Set<string>>();
  /** When each request's upstream calls arrived and when their connections closed (ms since the epoch). */
  readonly timesByRequest = new Map<string, { arrived: number; closed?: number }[]>();

  constructor(private readonly healthyBody: unknown) {}

  readonly handle = (request: RecordedRequest, response: ServerResponse): void => {
    const mode = this.mode;
    const requestId = String(request.headers['x-request-id'] ?? '');
    const modes = this.modesByRequest.get(requestId) ?? new Set<string>();
    modes.add(mode);
    this.modesByRequest.set(requestId, modes);
    const times: { arrived: number; closed?: number } = { arrived: Date.now() };
    this.timesByRequest.set(requestId, [...(this.timesByRequest.get(requestId) ?? []), times]);
    response.once('close', () => (times.closed = Date.now()));
    this.answer(mode, response);
  };

  /**
   * For a request that got no answer in time: when its upstream calls arrived and whether the service
   * closed them (it aborts a call at its deadline), relative to the request's start.
   */
  upstreamTimes(requestId: string, startedAt: number): string {
    const times = this.timesByRequest.get(requestId) ?? [];
    return times
      .map(
        ({ arrived, closed }) =>
          `arrived +${arrived - startedAt} ms, ${closed ? `closed +${closed - startedAt} ms` : 'open'}`,
      )
      .join('; ');
  }

  private answer(mode: UpstreamFault | 'ok', response: ServerResponse): void {
    switch (mode) {
      case 'ok':
        return sendJson(response, 200, this.healthyBody);
      case 'stall':
        return;
      case 'error500':
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(GO_PANIC);
        return;
      case 'reset':
        response.socket?.destroy();
        return;
      case 'malformedJson':
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(HALF_JSON);
        return;
      case 'wrongContentType':
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end('<html><body><h1>502 Bad Gateway</h1><p>nginx at /srv/www</p></body></html>');
        return;
      case 'resetMidBody':
      case 'stallMidBody':
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
        response.write(HALF_JSON);
        // The reset follows the half body after a moment, so the client has read a part of it first.
        if (mode === 'resetMidBody') setTimeout(() => response.socket?.destroy(), 20);
        return;
    }
  }
}

/** How the introspection endpoint fails during the outage. */
export type IntrospectionFault = 'stall' | 'error500' | 'malformed' | 'nullBody' | 'refused';

/**
 * Plays Ory Hydra's introspection endpoint: `good-*` tokens are active (sub = `acct-<token>`), anything
 * else inactive. It records when it declared each token active, so the test can prove a 2xx was earned.
 */
export class HydraStandin {
  mode: Exclude<IntrospectionFault, 'refused'> | 'ok' = 'ok';
  readonly activeAnswers = new Map<string, number[]>();

  readonly handle = (request: RecordedRequest, response: ServerResponse): void => {
    const token = new URLSearchParams(request.body).get('token') ?? '';
    switch (this.mode) {
      case 'stall':
        return;
      case 'error500':
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end('Error: database is locked\n    at Introspect (/srv/hydra/handler.go:88)');
        return;
      case 'malformed':
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('<html>maintenance</html>');
        return;
      case 'nullBody':
        return sendJson(response, 200, null);
      case 'ok':
        if (!token.startsWith('good-')) return sendJson(response, 200, { active: false });
        this.activeAnswers.set(token, [...(this.activeAnswers.get(token) ?? []), Date.now()]);
        return sendJson(response, 200, {
          active: true,
          sub: `acct-${token}`,
          client_id: 'web',
          exp: Math.floor(Date.now() / 1000) + 3600,
          ext: { visitor_type: 'realname' },
        });
    }
  };

  /** Whether the stand-in had declared `token` active by `time`. */
  validatedBy(token: string, time: number): boolean {
    return (this.activeAnswers.get(token) ?? []).some((at) => at <= time);
  }
}
