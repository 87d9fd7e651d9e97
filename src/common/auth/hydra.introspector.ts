import { Logger } from '@nestjs/common';
import { AuthConfig } from '../../config';
import { AppException } from '../errors/app.exception';
import { AuthErrors } from '../errors/error-codes';
import { accountTypeFromVisitor } from './account';
import { INACTIVE, TokenInfo, TokenIntrospector } from './token-introspector.port';

interface IntrospectionResponse {
  active?: boolean;
  sub?: string;
  client_id?: string;
  exp?: number;
  ext?: { visitor_type?: string; account_type?: string };
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
    return {
      active: true,
      accountId: payload.sub ?? '',
      accountType: accountTypeFromVisitor(payload.ext?.visitor_type, payload.sub, payload.client_id),
      expiresAt: typeof payload.exp === 'number' ? payload.exp : undefined,
    };
  }

  private async post(token: string): Promise<IntrospectionResponse> {
    let response: Response;
    try {
      response = await fetch(this.config.introspectUrl!, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ token }).toString(),
        signal: AbortSignal.timeout(this.config.introspectTimeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      this.logger.warn(`introspection request failed: ${(error as Error).name}`);
      throw new AppException(AuthErrors.IntrospectionUnavailable, 'token introspection is unavailable', {
        cause: error,
      });
    }
    if (!response.ok) {
      this.logger.warn(`introspection answered HTTP ${response.status}`);
      throw new AppException(AuthErrors.IntrospectionUnavailable, 'token introspection is unavailable');
    }
    let payload: unknown;
    try {
      payload = await response.json();
    } catch (error) {
      throw new AppException(AuthErrors.IntrospectionUnavailable, 'token introspection returned invalid JSON', {
        cause: error,
      });
    }
    // `null` or an array is valid JSON but no answer: the endpoint is broken, which is a 503, not a crash.
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
      throw new AppException(AuthErrors.IntrospectionUnavailable, 'token introspection returned no JSON object');
    }
    return payload as IntrospectionResponse;
  }
}
