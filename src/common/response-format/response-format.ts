import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
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

const FORMAT = Symbol('agentRetrieval:responseFormat');

type FormattedResponse = Response & { [FORMAT]?: ResponseFormat };

/**
 * Reads `response_format` once routing has matched, before any pipe or handler runs, so an invalid value
 * is a 400 before anything happens; open routes (probes, metrics, discovery) ignore it. The encoding
 * itself happens where the answer is written ({@link encodeAnswer}): no interceptor chain per request.
 */
@Injectable()
export class ResponseFormatGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    if (matchedRouteAccess(this.reflector, context) === 'open') return true;
    const http = context.switchToHttp();
    const format = parseResponseFormat(http.getRequest<Request>().query.response_format);
    if (format !== 'json') http.getResponse<FormattedResponse>()[FORMAT] = format;
    return true;
  }
}

/**
 * A handler's answer as it goes on the wire: TOON text (with its content type) when the request asked for
 * it, the value itself otherwise. Errors never come through here (the exception filter writes them as JSON).
 */
export function encodeAnswer(response: Response, body: unknown): unknown {
  if ((response as FormattedResponse)[FORMAT] !== 'toon' || body === undefined || body === null) return body;
  if (response.headersSent) return body;
  response.type('application/toon');
  return encodeToon(body);
}
