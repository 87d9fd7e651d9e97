import { normalizeText } from '../common/text/normalize-text';

/**
 * Upstream's string-match score: exact name 1.0, name contains query 0.5, query contains name 0.3,
 * compared in searched form (case, full-width and traditional characters folded).
 */
export function nameMatchScore(name: string, query: string, exact = 1): number {
  const a = normalizeText(name.trim());
  const b = normalizeText(query.trim());
  if (!a || !b) return 0;
  if (a === b) return exact;
  if (a.includes(b)) return 0.5;
  if (b.includes(a)) return 0.3;
  return 0;
}
