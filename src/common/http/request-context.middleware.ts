import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { Language } from '../../config/i18n.config';
import { attachRequestContext, RequestContext, runWithRequestContext } from '../context/request-context';
import { languageFromHeaders } from '../i18n/language';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A request once this middleware ran: `id` is its request id (absent for a request that never got here). */
export type RequestWithId = Request & { id?: string };

/**
 * Accepts a well-formed X-Request-Id or makes one, echoes it on every response, and gives the request its
 * context (on the request, and ambiently when contexts travel so: see request-context).
 */
export function requestContextMiddleware(defaultLanguage: Language) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const offered = request.headers['x-request-id'];
    const candidate = Array.isArray(offered) ? offered[0] : offered;
    const requestId = candidate && SAFE_REQUEST_ID.test(candidate) ? candidate : randomUUID();
    (request as RequestWithId).id = requestId;
    response.setHeader('X-Request-Id', requestId);
    const context: RequestContext = { requestId, language: languageFromHeaders(request.headers, defaultLanguage) };
    attachRequestContext(request, context);
    runWithRequestContext(context, next);
  };
}
