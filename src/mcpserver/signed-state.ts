import { createHmac, timingSafeEqual } from 'node:crypto';

/** Longest signed state accepted back from a client (anything longer was not minted here). */
const MAX_STATE_CHARS = 4096;

/**
 * State this server hands a client to echo back (`requestState`, the capability-bearing session id),
 * HMAC-SHA256 signed with the server's key and expiring: what comes back is attacker-controlled input,
 * so anything unsigned, altered, expired or of another purpose is refused as if absent.
 */
export class SignedState {
  constructor(private readonly secret: string) {}

  sign(purpose: string, payload: Record<string, unknown>, ttlMs: number, now = Date.now()): string {
    const body = Buffer.from(JSON.stringify({ ...payload, p: purpose, exp: now + ttlMs })).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** The payload when the state is this server's, of this purpose and not expired; else undefined. */
  verify(purpose: string, state: unknown, now = Date.now()): Record<string, unknown> | undefined {
    if (typeof state !== 'string' || state.length > MAX_STATE_CHARS) return undefined;
    const [body, mac, extra] = state.split('.');
    if (!body || !mac || extra !== undefined) return undefined;
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    if (typeof payload !== 'object' || payload === null) return undefined;
    const { p, exp } = payload as { p?: unknown; exp?: unknown };
    if (p !== purpose || typeof exp !== 'number' || exp < now) return undefined;
    return payload as Record<string, unknown>;
  }

  private mac(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url');
  }
}
