import type { ErrorObject } from 'ajv';

/** Violations listed in one answer; the rest are counted. */
export const MAX_LISTED_VIOLATIONS = 20;

/** `/items/0/name` → `items[0].name` (RFC 6901 pointer tokens decoded). */
function fieldPath(pointer: string, child?: unknown): string {
  const tokens = pointer === '' ? [] : pointer.slice(1).split('/');
  if (typeof child === 'string') tokens.push(child);
  return tokens
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((token, i) => (/^\d+$/.test(token) ? `[${token}]` : i === 0 ? token : `.${token}`))
    .join('');
}

function describeViolation(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return `${fieldPath(error.instancePath, params.missingProperty)} is required`;
  if (error.keyword === 'additionalProperties') {
    return `${fieldPath(error.instancePath, params.additionalProperty)} is not allowed`;
  }
  const field = fieldPath(error.instancePath) || 'arguments';
  if (error.keyword === 'enum') return `${field} must be one of ${JSON.stringify(params.allowedValues)}`;
  return `${field} ${error.message ?? 'is invalid'}`;
}

/**
 * ajv's errors as one line each, naming the field (`days_supply must be integer`, `items[1].drug_id is
 * required`), duplicates dropped, at most MAX_LISTED_VIOLATIONS and a count of the rest.
 */
export function describeViolations(errors: readonly ErrorObject[] | null | undefined): string[] {
  const lines = [...new Set((errors ?? []).map(describeViolation))];
  if (lines.length <= MAX_LISTED_VIOLATIONS) return lines;
  return [...lines.slice(0, MAX_LISTED_VIOLATIONS), `… and ${lines.length - MAX_LISTED_VIOLATIONS} more`];
}
