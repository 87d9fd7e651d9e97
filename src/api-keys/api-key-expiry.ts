const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** No key outlives ten years: a longer expiry is almost certainly a typo, and `never` is spelled by omission. */
export const MAX_LIFETIME_MS = 3650 * UNIT_MS.d;

const DURATION = /^(\d{1,7})([smhd])$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,9})?)?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/** A rejected expiry; the message says what would have been accepted. */
export class ExpiryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExpiryError';
  }
}

/** `30d`, `12h`, `90m`, `45s` → epoch ms that long after `now`. */
export function parseDuration(text: string, now: number): number {
  const match = DURATION.exec(text);
  if (!match) throw new ExpiryError('must be a duration such as 30d, 12h, 90m or 45s');
  const lifetime = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  return bounded(now + lifetime, now);
}

/**
 * An ISO 8601 date (`2027-01-31`, midnight UTC) or date-time with its zone (`2027-01-31T18:00:00Z`,
 * `…+08:00`) → epoch ms. A date-time without a zone is refused: it would mean the server's zone.
 */
export function parseIsoDate(text: string, now: number): number {
  const date = DATE.exec(text) ?? DATE_TIME.exec(text);
  if (!date)
    throw new ExpiryError('must be an ISO 8601 date (2027-01-31) or date-time with a zone (2027-01-31T18:00Z)');
  const [year, month, day] = [Number(date[1]), Number(date[2]), Number(date[3])];
  // Date.parse rolls 2027-02-30 over to March; a calendar date that does not exist is a mistake.
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) {
    throw new ExpiryError(`is not a calendar date: ${text}`);
  }
  return bounded(Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text), now);
}

/** True for the duration form (`30d`): the CLI's `--expires` takes either form, and sends it as such. */
export function isDuration(text: string): boolean {
  return DURATION.test(text);
}

function bounded(expiresAt: number, now: number): number {
  if (!Number.isFinite(expiresAt)) throw new ExpiryError('is not a valid time');
  if (expiresAt <= now) throw new ExpiryError('must be in the future');
  if (expiresAt - now > MAX_LIFETIME_MS) throw new ExpiryError('must be at most 3650 days away');
  return expiresAt;
}
