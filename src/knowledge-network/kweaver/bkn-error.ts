import { AppException, ErrorBody, PassThroughException } from '../../common/errors/app.exception';
import { PublicErrors } from '../../common/errors/error-codes';
import { asRecord, asString, asText } from './json-readers';
import { KweaverErrors } from './kweaver.errors';
import { upstreamStatusDetails } from './upstream-summary';

export const BKN_BACKEND = 'bkn-backend';

/** BKN's error body, `{error_code, description, solution, error_link, error_details}`, in our shape. */
export function bknErrorBody(body: unknown): ErrorBody | undefined {
  const record = asRecord(body);
  const code = asText(record?.error_code);
  if (!record || !code) return undefined;
  const errorBody: ErrorBody = {
    code,
    description: asString(record.description) ?? '',
    solution: asString(record.solution) ?? '',
    link: asString(record.error_link) ?? '',
  };
  if (record.error_details !== undefined) errorBody.details = record.error_details;
  return errorBody;
}

/**
 * bkn-backend non-2xx → what we throw (upstream-contracts §6.1): BKN's own error body passes through
 * with BKN's status; a 404 without one is `Public.NotFound` naming the path (never the host);
 * anything else is a 502 with a short summary.
 */
export function bknError(status: number, body: unknown, path: string): Error {
  const passThrough = bknErrorBody(body);
  if (passThrough && status >= 400) return new PassThroughException(status, passThrough);
  if (status === 404) {
    return new AppException(PublicErrors.NotFound, `[BknBackendAccess] request not found, [${path}]`);
  }
  return new AppException(KweaverErrors.BknBackendFailed, upstreamStatusDetails(BKN_BACKEND, status, body));
}
