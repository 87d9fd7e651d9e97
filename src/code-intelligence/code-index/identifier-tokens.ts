const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*|[0-9]+/g;
const MAX_QUERY_TOKENS = 32;

/** `getHTTPServer2` → get, http, server2; `snake_case_name` → snake, case, name. */
export function identifierParts(identifier: string): string[] {
  return identifier
    .replace(/\$/g, '_')
    .split('_')
    .flatMap((piece) => piece.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g) ?? [])
    .map((part) => part.toLowerCase())
    .filter((part) => part.length > 0);
}

/** One identifier as index terms: the whole identifier (lower-cased) and, when compound, its parts. */
export function identifierTerms(identifier: string): string[] {
  const whole = identifier.replace(/\$/g, '_').toLowerCase();
  const parts = identifierParts(identifier);
  return parts.length > 1 || parts[0] !== whole ? [whole, ...parts] : [whole];
}

/** The text the full-text index sees for a chunk: every identifier plus its camelCase/snake_case parts. */
export function indexText(text: string): string {
  return (text.match(IDENTIFIER) ?? []).flatMap(identifierTerms).join(' ');
}

/** Distinct search terms of a free-text query, in order, bounded in number. */
export function queryTerms(query: string): string[] {
  const terms = (query.match(IDENTIFIER) ?? []).flatMap(identifierTerms).filter((term) => term.length >= 2);
  return [...new Set(terms)].slice(0, MAX_QUERY_TOKENS);
}

/**
 * An FTS5 MATCH expression that ORs the terms. Terms are made of [a-z0-9_] only and each is quoted,
 * so no query text can inject FTS syntax.
 */
export function ftsMatchExpression(terms: string[]): string {
  return terms
    .map((term) => term.replace(/[^a-z0-9_]/g, ''))
    .filter((term) => term.length > 0)
    .map((term) => `"${term}"`)
    .join(' OR ');
}
