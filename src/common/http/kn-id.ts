import { AppException } from '../errors/app.exception';
import { ValidationErrors } from '../errors/error-codes';
import { checkIdentifier } from '../limits/input-limits';

export const KN_ID_REQUIRED = 'kn_id is required (configure X-Kn-ID header or pass kn_id in arguments)';
export const QUERY_REQUIRED = 'query is required';

/** An explicit kn_id (body, query string or tool argument) wins over the X-Kn-ID header (SPEC §3). */
export function resolveKnId(explicit: unknown, header: unknown): string {
  const pick = (value: unknown): string | undefined => {
    const text = Array.isArray(value) ? value[0] : value;
    return typeof text === 'string' && text.trim() !== '' ? text.trim() : undefined;
  };
  const knId = pick(explicit) ?? pick(header);
  if (!knId) throw new AppException(ValidationErrors.Required, KN_ID_REQUIRED);
  checkIdentifier('kn_id', knId);
  return knId;
}

/** A non-blank query, trimmed; otherwise the documented `query is required` 400. */
export function requireQuery(query: unknown): string {
  if (typeof query !== 'string' || query.trim() === '') {
    throw new AppException(ValidationErrors.Required, QUERY_REQUIRED);
  }
  return query.trim();
}
