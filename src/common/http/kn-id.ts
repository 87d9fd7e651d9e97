import type { IncomingHttpHeaders } from 'node:http';
import { AppException } from '../errors/app.exception';
import { ValidationErrors } from '../errors/error-codes';
import { LocalizedDetails } from '../errors/localized-details';
import { checkIdentifier } from '../limits/input-limits';

/** The English text of the missing-kn_id details (`validation.knIdRequired`). */
export const KN_ID_REQUIRED = 'kn_id is required (configure X-Kn-ID header or pass kn_id in arguments)';

/** Where a kn_id may come from: a request body or a tool's arguments, the query string, the headers. */
export interface KnIdSources {
  body?: unknown;
  query?: unknown;
  headers?: IncomingHttpHeaders;
}

const knIdIn = (container: unknown): unknown =>
  container && typeof container === 'object' ? (container as { kn_id?: unknown }).kn_id : undefined;

const nonBlank = (value: unknown): string | undefined => {
  const text = Array.isArray(value) ? (value as unknown[])[0] : value;
  return typeof text === 'string' && text.trim() !== '' ? text.trim() : undefined;
};

/**
 * The one kn_id rule (SPEC §3): the body's (or the tool arguments') kn_id, else the `kn_id` query
 * parameter, else the X-Kn-ID header; blank values do not count. Missing is the documented 400.
 */
export function resolveKnId(sources: KnIdSources): string {
  const knId =
    nonBlank(knIdIn(sources.body)) ?? nonBlank(knIdIn(sources.query)) ?? nonBlank(sources.headers?.['x-kn-id']);
  if (!knId) throw new AppException(ValidationErrors.Required, new LocalizedDetails('validation.knIdRequired', {}));
  checkIdentifier('kn_id', knId);
  return knId;
}
