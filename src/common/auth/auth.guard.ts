import { CanActivate, ExecutionContext, Inject, Injectable, Logger, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AuthConfig, configToken, ServerConfig } from '../../config';
import { requestContextOf } from '../context/request-context';
import { AppException } from '../errors/app.exception';
import { recordErrorShape } from '../errors/error-shape';
import { AccountThrottlerGuard } from '../http/account-throttler.guard';
import { headerText } from '../http/header-text';
import { AuthErrors } from '../errors/error-codes';
import { listenerServes, notServedHere, requestListener } from '../http/listeners';
import { matchedRouteAccess } from '../http/route-access';
import { ANONYMOUS, AccountContext } from './account';
import { maskApiKeys } from './api-keys/api-key-format';
import { TokenIntrospector } from './token-introspector.port';

export type AuthenticatedRequest = Request & { account?: AccountContext };

/** `Authorization: Bearer …`, then `X-Authorization` (with or without the Bearer word). */
export function bearerToken(request: Request): string | undefined {
  for (const name of ['authorization', 'x-authorization']) {
    const value = headerText(request.headers[name]);
    if (!value) continue;
    const match = /^Bearer\s+(.+)$/i.exec(value);
    if (match) return match[1].trim();
    if (name === 'x-authorization') return value;
  }
  return undefined;
}

const RESOURCE_METADATA_CHALLENGE = 'agentRetrieval:resourceMetadataChallenge';

/** Where a protected resource's RFC 9728 metadata lives for a request (undefined: it publishes none). */
export type ResourceMetadataUrl = (request: Request) => string | undefined;

/** On a protected resource (the MCP endpoint): a 401 also says where its RFC 9728 metadata lives. */
export const ChallengeWithResourceMetadata = (metadataUrl: ResourceMetadataUrl): ClassDecorator =>
  SetMetadata(RESOURCE_METADATA_CHALLENGE, metadataUrl);

/**
 * One guard for every route, chosen by the access class the matched route declares (SPEC §5): public
 * routes need a valid token, private routes take the account from x-account-* headers, open routes
 * (health, metrics) pass, and a route that declares nothing is refused.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly logger = new Logger('AuthGuard');

  constructor(
    @Inject(configToken('auth')) private readonly config: AuthConfig,
    private readonly introspector: TokenIntrospector,
    private readonly reflector: Reflector,
    private readonly throttler: AccountThrottlerGuard,
    @Inject(configToken('server')) private readonly server: Pick<ServerConfig, 'privateListener'>,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const access = matchedRouteAccess(this.reflector, context);
    // A route of the other listener answers as if absent, in the default shape (SPEC §12).
    if (access && !listenerServes(requestListener(request), access, this.server.privateListener !== undefined)) {
      throw notServedHere(request);
    }
    // The first place the matched route is known: from here on its errors answer in its declared shape.
    recordErrorShape(this.reflector, context, request);
    if (access === 'open') return true;
    if (access === undefined) throw this.undeclared(context);
    const challenge = this.reflector.get<ResourceMetadataUrl | undefined>(
      RESOURCE_METADATA_CHALLENGE,
      context.getClass(),
    );
    const account =
      access === 'private' ? this.fromHeaders(request) : await this.fromToken(context, request, challenge);
    request.account = account;
    const requestContext = requestContextOf(request);
    if (requestContext) requestContext.account = account;
    return true;
  }

  /** Fail closed: a controller without Public/Private/Open/ApiController is a programming error, never a pass. */
  private undeclared(context: ExecutionContext): AppException {
    this.logger.error(
      `route ${context.getClass().name}.${context.getHandler().name} declares no access class; refused`,
    );
    return new AppException(AuthErrors.RouteAccessUndeclared, 'this route declares no access class');
  }

  /** In-cluster callers name the account; one that names none would act as account "" (shared by all). */
  private fromHeaders(request: Request): AccountContext {
    const id = headerText(request.headers['user_id']) ?? headerText(request.headers['x-account-id']) ?? '';
    if (id.trim() === '') {
      this.logger.warn(
        `private route ${request.method} ${maskApiKeys(request.path.slice(0, 200))} without x-account-id; refused`,
      );
      throw new AppException(AuthErrors.AccountMissing, 'x-account-id is required on the private prefix');
    }
    return { id, type: headerText(request.headers['x-account-type']) ?? '' };
  }

  /**
   * A request refused here is anonymous, so it counts in the client IP's rate-limit bucket; once that is
   * spent, the authority is not asked about a new token from the same address (429 instead).
   */
  private async fromToken(
    context: ExecutionContext,
    request: Request,
    challenge: ResourceMetadataUrl | undefined,
  ): Promise<AccountContext> {
    if (this.config.mode === 'none') return ANONYMOUS;
    const token = bearerToken(request);
    if (!token) {
      await this.throttler.limitAnonymous(context);
      throw this.unauthorized(AuthErrors.TokenMissing, 'token is missing', request, challenge);
    }
    const info = await this.introspector.introspect(token, () => this.throttler.admitAnonymous(context));
    if (!info.active) {
      await this.throttler.limitAnonymous(context);
      throw this.unauthorized(AuthErrors.TokenInactive, 'token is invalid', request, challenge);
    }
    // An API key is ours alone: it is never forwarded to an upstream as the caller's token.
    if (info.keyId) return { id: info.accountId, type: info.accountType, keyId: info.keyId };
    const requestContext = requestContextOf(request);
    if (requestContext) requestContext.token = token;
    return { id: info.accountId, type: info.accountType };
  }

  private unauthorized(
    definition: typeof AuthErrors.TokenMissing,
    details: string,
    request: Request,
    challenge: ResourceMetadataUrl | undefined,
  ): AppException {
    const header = authChallenge(request, definition, challenge);
    return new AppException(definition, details, { headers: { 'WWW-Authenticate': header } });
  }
}

/** RFC 6750 challenge; on a protected resource MCP clients also learn where its metadata lives. */
function authChallenge(
  request: Request,
  definition: typeof AuthErrors.TokenMissing,
  resourceMetadataUrl: ResourceMetadataUrl | undefined,
): string {
  const parts = ['Bearer realm="agent-retrieval"'];
  if (definition === AuthErrors.TokenInactive) parts.push('error="invalid_token"');
  const metadata = resourceMetadataUrl?.(request);
  if (metadata) parts.push(`resource_metadata="${metadata}"`);
  return parts.join(', ');
}
