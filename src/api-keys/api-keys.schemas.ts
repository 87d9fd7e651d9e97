import { z } from 'zod';
import { AppException } from '../common/errors/app.exception';
import { ValidationErrors } from '../common/errors/error-codes';
import { isRecord } from '../common/http/json-inspection';
import { parseInput } from '../capabilities/capability-input';
import { KEY_ID_PATTERN } from '../common/auth/api-keys/api-key-format';
import { ExpiryError, parseDuration, parseIsoDate } from './api-key-expiry';

// Account ids and types travel upstream as x-account-id / x-account-type headers: visible ASCII only.
const ACCOUNT_ID = /^[\x21-\x7e]{1,256}$/;
const ACCOUNT_TYPE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** The body of `POST …/admin/api-keys`; the CLI's `create` is validated by the same schema. */
export const CREATE_API_KEY_BODY = z.object({
  account_id: z
    .string()
    .regex(ACCOUNT_ID, 'must be 1 to 256 visible ASCII characters')
    .describe('The account the key stands for (becomes x-account-id)'),
  account_type: z
    .string()
    .regex(ACCOUNT_TYPE, 'must be 1 to 64 letters, digits, _, . or - (e.g. agent, user, app)')
    .describe('The account type the access policy scopes the key by (becomes x-account-type)'),
  name: z
    .string()
    .min(1)
    .max(200)
    .refine((value) => !CONTROL_CHARACTERS.test(value), 'must not contain control characters')
    .optional()
    .describe('A label for people: what the key is for'),
  expires_at: z.string().optional().describe('ISO 8601 date or date-time with zone; omit (with expires_in) for none'),
  expires_in: z.string().optional().describe('A lifetime such as 30d, 12h, 90m or 45s, instead of expires_at'),
});

export interface CreateApiKeyInput {
  accountId: string;
  accountType: string;
  name?: string;
  expiresAt?: number;
}

const FIELDS = Object.keys(CREATE_API_KEY_BODY.shape);

/**
 * Validates a create request into the documented 400s, naming the field. Unknown fields are refused,
 * not ignored: a mistyped `expires` silently dropped would make a key that never expires.
 */
export function parseCreateApiKey(body: unknown, now: number): CreateApiKeyInput {
  const args = isRecord(body) ? body : {};
  const unknown = Object.keys(args).find((field) => !FIELDS.includes(field));
  if (unknown !== undefined) {
    throw new AppException(
      ValidationErrors.Format,
      `${unknown.slice(0, 64)}: unknown field (known: ${FIELDS.join(', ')})`,
    );
  }
  const parsed = parseInput(CREATE_API_KEY_BODY, args);
  if (parsed.expires_at !== undefined && parsed.expires_in !== undefined) {
    throw new AppException(ValidationErrors.Format, 'expires_at: give expires_at or expires_in, not both');
  }
  return {
    accountId: parsed.account_id,
    accountType: parsed.account_type,
    name: parsed.name,
    expiresAt: expiry(parsed.expires_at, parsed.expires_in, now),
  };
}

function expiry(at: string | undefined, lifetime: string | undefined, now: number): number | undefined {
  if (at !== undefined) return expiryOf('expires_at', () => parseIsoDate(at, now));
  if (lifetime !== undefined) return expiryOf('expires_in', () => parseDuration(lifetime, now));
  return undefined;
}

function expiryOf(field: string, parse: () => number): number {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof ExpiryError)) throw error;
    throw new AppException(ValidationErrors.Format, `${field}: ${error.message}`);
  }
}

/** The query of `GET …/admin/api-keys`: an optional account filter. */
export const LIST_API_KEYS_QUERY = z.object({
  account_id: z.string().regex(ACCOUNT_ID, 'must be 1 to 256 visible ASCII characters').optional(),
});

export function parseListQuery(query: unknown): string | undefined {
  return parseInput(LIST_API_KEYS_QUERY, isRecord(query) ? query : {}).account_id;
}

/** A key id from a path or the command line; anything else could name no key. */
export function parseKeyId(text: string): string {
  if (KEY_ID_PATTERN.test(text)) return text;
  throw new AppException(ValidationErrors.Format, 'key_id: must be 16 lowercase hexadecimal characters');
}
