import { AppException } from '../errors/app.exception';
import { ValidationErrors } from '../errors/error-codes';
import { requiredDetails } from './required-text';

/** C0 controls, DEL and C1 controls. */
const CONTROL = /\p{Cc}/u;
const SEPARATOR = /[/\\]/;
const DOTS_ONLY = /^\.+$/;
/** Percent-decoding rounds tried: an upstream or proxy in front of it may decode once more than we encode. */
const DECODE_ROUNDS = 3;
/** A dot segment as URL parsers see it (`.`, `..`, `%2e`, `.%2E` …), or a backslash (a separator for http). */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** The value, and every form an upstream may read it as: percent-decoded (repeatedly) and NFKC-folded (`．．` → `..`). */
function readings(value: string): string[] {
  const forms = [value];
  let current = value;
  for (let round = 0; round < DECODE_ROUNDS; round++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      break;
    }
    if (decoded === current) break;
    forms.push(decoded);
    current = decoded;
  }
  return [...forms, ...forms.map((form) => form.normalize('NFKC'))];
}

/** Why a value cannot be one path segment, or undefined when it can. */
function segmentProblem(value: string): string | undefined {
  for (const form of readings(value)) {
    if (CONTROL.test(form)) return 'must not contain control characters';
    if (SEPARATOR.test(form)) return 'must be a single path segment (no "/" or "\\")';
    if (DOTS_ONLY.test(form.trim())) return 'must not be "." or ".."';
  }
  return undefined;
}

/**
 * One URL path segment built from a caller-supplied id (a header, a route or tool parameter), encoded.
 * Refused with a 400 naming `parameter`: blank values, control characters, `/` or `\`, and ids that are
 * only dots — in any form an upstream may decode them to (`%2e%2e`, `%252F`, fullwidth `．．`), because
 * a resolved dot segment moves the call, with our credential, to another upstream path (issue 31).
 */
export function pathSegment(parameter: string, value: unknown): string {
  const id = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  if (id.trim() === '') throw new AppException(ValidationErrors.Required, requiredDetails(parameter));
  const problem = segmentProblem(id);
  if (problem) throw new AppException(ValidationErrors.Format, `${parameter} ${problem}`);
  return encodeURIComponent(id);
}

/** The base URL's path with one trailing slash: what every URL built on it must start with. */
function basePath(base: URL): string {
  return base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
}

/**
 * `baseUrl` joined with `path` (a path and query, never a full URL), checked to stay under the base:
 * same origin, the base's path as a prefix, and no dot segment or backslash left for URL parsing to
 * resolve. The backstop behind `pathSegment`: a path built from unchecked input fails here, not upstream.
 */
export function upstreamUrl(baseUrl: string, path: string, upstream: string): URL {
  const joined = `${baseUrl.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
  const escapes = (): AppException =>
    new AppException(ValidationErrors.Format, `the request path would leave the base path of ${upstream}`);
  const rawPath = path.split(/[?#]/, 1)[0];
  // URL parsing drops tabs and newlines, which could join `.` and `.` into a dot segment.
  if (CONTROL.test(path) || rawPath.includes('\\')) throw escapes();
  if (rawPath.split('/').some((segment) => DOT_SEGMENT.test(segment))) throw escapes();
  const base = new URL(baseUrl);
  const url = new URL(joined);
  const prefix = basePath(base);
  if (url.origin !== base.origin || !`${url.pathname}/`.startsWith(prefix)) throw escapes();
  return url;
}
