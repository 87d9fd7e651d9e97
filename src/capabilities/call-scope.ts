import type { AuthenticatedRequest } from '../common/auth/auth.guard';
import { ANONYMOUS } from '../common/auth/account';
import { requestContextOf } from '../common/context/request-context';
import type { RequestWithId } from '../common/http/request-context.middleware';
import { languageFromHeaders } from '../common/i18n/language';
import type { Language } from '../config/i18n.config';
import type { Door } from './capability';
import type { CallScope } from './capability-gateway';

/** The scope of a call that arrived with an HTTP request: its principal, headers, language and request id. */
export function requestScope(
  door: Door,
  request: AuthenticatedRequest | undefined,
  defaultLanguage: Language,
): CallScope {
  const context = requestContextOf(request);
  const headers = request?.headers ?? {};
  return {
    door,
    principal: request?.account ?? context?.account ?? ANONYMOUS,
    headers,
    language: context?.language ?? languageFromHeaders(headers, defaultLanguage),
    requestId: (request as RequestWithId | undefined)?.id ?? context?.requestId,
  };
}
