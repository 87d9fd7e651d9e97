import { Logger } from '@nestjs/common';
import { AuthConfig } from '../../config';
import { AppException } from '../errors/app.exception';
import { AuthErrors } from '../errors/error-codes';
import { fetchWithin, OutboundResponse } from '../http/outbound-fetch';
import { accountTypeFromVisitor } from './account';
import { INACTIVE, TokenInfo, TokenIntrospector } from './token-introspector.port';

interface IntrospectionResponse {
  active?: boolean;
  sub?: unknown;
  client_id?: unknown;
  exp?: number;
  ext?: { visitor_type?: string; account_type?: string };
}

const isIdentifier = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** The identifier of an active answer that cannot name an account: `sub` always, `client_id` when present. */
function unusableIdentifier(payload: IntrospectionResponse): 'sub' | 'client_id' | undefined {
  if (!isIdentifier(payload.sub)) return 'sub';
  if (payload.client_id != null && !isIdentifier(payload.client_id)) return 'client_id';
  return undefined;
}

function describeValue(value: unknown): string {
  if (value === undefined || value === null) return 'no';
  if (typeof value !== 'string') return `a non-string (${Array.isArray(value) ? 'array' : typeof value})`;
  return 'an empty';
}

/** RFC 7662 token introspection, Ory Hydra compatible (form POST `token=<t>`). */
export class HydraIntrospector extends TokenIntrospector {
  private readonly logger = new Logger('Introspection');

  constructor(private readonly config: Pick<AuthConfig, 'introspectUrl' | 'introspectTimeoutMs'>) {
    super();
  }

  async introspect(token: string): Promise<TokenInfo> {
    const payload = await this.post(token);
    if (payload.active !== true) return INACTIVE;
    // An active token naming nobody would become account "" (one rate-limit bucket, one workspace owner for all).
    const unusable = unusableIdentifier(payload);
    if (unusable) {
      this.logger.warn(
        `introspection answered an active token with ${describeValue(payload[unusable])} ${unusable}; refused (401)`,
      );
      return INACTIVE;
    }
    const sub = payload.sub as string;
    const clientId = isIdentifier(payload.client_id) ? payload.client_id : undefined;
    return {
      active: true,
      accountId: sub,
      accountType: accountTypeFromVisitor(payload.ext?.visitor_type, sub, clientId),
      expiresAt: typeof payload.exp === 'number' ? payload.exp : undefined,
    };
  }

  private async post(token: string): Promise<IntrospectionResponse> {
    const init = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ token }).toString(),
      redirect: 'error',
    } as const;
    let payload: unknown;
    try {
      payload = await fetchWithin(this.config.introspectUrl!, init, this.config.introspectTimeoutMs, (response) =>
        this.answer(response),
      );
    } catch (error) {
      if (error instanceof AppException) throw error;
      this.logger.warn(`introspection request failed: ${(error as Error).name}`);
      throw new AppException(AuthErrors.IntrospectionUnavailable, 'token introspection is unavailable', {
        cause: error,
      });
    }
    // `null` or an array is valid JSON but no answer: the endpoint is broken, which is a 503, not a crash.
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
      throw new AppException(AuthErrors.IntrospectionUnavailable, 'token introspection returned no JSON object');
    }
    return payload as IntrospectionResponse;
  }

  /** The endpoint's JSON; read under the call's deadline, so a body that stalls ends with it. */
  private async answer(response: OutboundResponse): Promise<unknown> {
    if (!response.ok) {
      this.logger.warn(`introspection answered HTTP ${response.status}`);
      await response.body?.cancel().catch(() => undefined);
      throw new AppException(AuthErrors.IntrospectionUnavailable, 'token introspection is unavailable');
    }
    try {
      return await response.json();
    } catch (error) {
      if ((error as Error | undefined)?.name !== 'SyntaxError') throw error;
      throw new AppException(AuthErrors.IntrospectionUnavailable, 'token introspection returned invalid JSON', {
        cause: error,
      });
    }
  }
}
