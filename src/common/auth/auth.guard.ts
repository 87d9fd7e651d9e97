import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AuthConfig, configToken } from '../../config';
import { currentRequestContext } from '../context/request-context';
import { AppException } from '../errors/app.exception';
import { AuthErrors } from '../errors/error-codes';
import { routeAccess } from '../http/route-prefixes';
import { ANONYMOUS, AccountContext } from './account';
import { TokenIntrospector } from './token-introspector.port';

export type AuthenticatedRequest = Request & { account?: AccountContext };

function headerValue(request: Request, name: string): string | undefined {
  const value = request.headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  return text?.trim() || undefined;
}

/** `Authorization: Bearer …`, then `X-Authorization` (with or without the Bearer word). */
export function bearerToken(request: Request): string | undefined {
  for (const name of ['authorization', 'x-authorization']) {
    const value = headerValue(request, name);
    if (!value) continue;
    const match = /^Bearer\s+(.+)$/i.exec(value);
    if (match) return match[1].trim();
    if (name === 'x-authorization') return value;
  }
  return undefined;
}

/**
 * One guard for every route, chosen by prefix (SPEC §5): public routes need a valid token,
 * private routes take the account from x-account-* headers, open routes (health, metrics) pass.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    @Inject(configToken('auth')) private readonly config: AuthConfig,
    private readonly introspector: TokenIntrospector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const access = routeAccess(request.path);
    if (access === 'open') return true;
    const account = access === 'private' ? this.fromHeaders(request) : await this.fromToken(request);
    request.account = account;
    const requestContext = currentRequestContext();
    if (requestContext) requestContext.account = account;
    return true;
  }

  private fromHeaders(request: Request): AccountContext {
    return {
      id: headerValue(request, 'user_id') ?? headerValue(request, 'x-account-id') ?? '',
      type: headerValue(request, 'x-account-type') ?? '',
    };
  }

  private async fromToken(request: Request): Promise<AccountContext> {
    if (this.config.mode === 'none') return ANONYMOUS;
    const token = bearerToken(request);
    if (!token) throw this.unauthorized(AuthErrors.TokenMissing, 'token is missing', request);
    const info = await this.introspector.introspect(token);
    if (!info.active) throw this.unauthorized(AuthErrors.TokenInactive, 'token is invalid', request);
    const requestContext = currentRequestContext();
    if (requestContext) requestContext.token = token;
    return { id: info.accountId, type: info.accountType };
  }

  private unauthorized(definition: typeof AuthErrors.TokenMissing, details: string, request: Request): AppException {
    return new AppException(definition, details, { headers: { 'WWW-Authenticate': authChallenge(request, definition) } });
  }
}

/** RFC 6750 challenge; MCP clients additionally learn where the protected-resource metadata lives. */
export function authChallenge(request: Request, definition: typeof AuthErrors.TokenMissing): string {
  const parts = ['Bearer realm="agent-retrieval"'];
  if (definition === AuthErrors.TokenInactive) parts.push('error="invalid_token"');
  const metadata = resourceMetadataUrl(request);
  if (metadata) parts.push(`resource_metadata="${metadata}"`);
  return parts.join(', ');
}

/** Set by the MCP module: maps a request to its RFC 9728 metadata URL, if the path is an MCP endpoint. */
let resourceMetadataResolver: ((request: Request) => string | undefined) | undefined;

export function setResourceMetadataResolver(resolver: (request: Request) => string | undefined): void {
  resourceMetadataResolver = resolver;
}

function resourceMetadataUrl(request: Request): string | undefined {
  return resourceMetadataResolver?.(request);
}
