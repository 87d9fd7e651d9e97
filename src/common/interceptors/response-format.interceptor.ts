import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { map, Observable } from 'rxjs';
import { AppException } from '../errors/app.exception';
import { ValidationErrors } from '../errors/error-codes';
import { matchedRouteAccess } from '../http/route-access';
import { encodeToon } from './toon';

export type ResponseFormat = 'json' | 'toon';

/** Reads `?response_format=` (SPEC §3): json (default) or toon; anything else is a 400. */
export function parseResponseFormat(value: unknown): ResponseFormat {
  if (value === undefined || value === '') return 'json';
  if (value === 'json' || value === 'toon') return value;
  // Never String() a caller's value: an object whose toString is not a function throws.
  const describe = (item: unknown): string => (typeof item === 'string' ? item : typeof item);
  const shown = Array.isArray(value) ? value.map(describe).join(',') : describe(value);
  throw new AppException(
    ValidationErrors.InvalidResponseFormat,
    `invalid response_format: ${JSON.stringify(shown.slice(0, 64))} (allowed: json, toon)`,
  );
}

/** Encodes successful API responses as TOON when asked; errors stay JSON (the filter writes them). */
@Injectable()
export class ResponseFormatInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    if (matchedRouteAccess(this.reflector, context) === 'open') return next.handle();
    const request = context.switchToHttp().getRequest<Request>();
    const format = parseResponseFormat(request.query.response_format);
    if (format === 'json') return next.handle();
    const response = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((data: unknown) => {
        if (response.headersSent || data === undefined) return data;
        response.type('application/toon');
        return encodeToon(data);
      }),
    );
  }
}
