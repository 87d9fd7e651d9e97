import { normalizeText } from '../common/text/normalize-text';

/**
 * Upstream's string-match score: exact name 1.0, name contains query 0.5, query contains name 0.3,
 * compared in searched form (case, full-width and traditional characters folded).
 */
export function nameMatchScore(name: string, query: string, exact = 1): number {
  return nameMatcher(query, exact)(name);
}

/** `nameMatchScore` against one query, normalised once for the many names it is compared with. */
export function nameMatcher(query: string, exact = 1): (name: string) => number {
  const b = normalizeText(query.trim());
  return (name) => {
    if (!b) return 0;
    const a = normalizeText(name.trim());
    if (!a) return 0;
    if (a === b) return exact;
    if (a.includes(b)) return 0.5;
    if (b.includes(a)) return 0.3;
    return 0;
  };
}
