import { toSimplified } from './traditional-chinese';

/** Any character outside ASCII. */
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * The form text is searched in, on both sides (what is indexed and what is asked): NFKC folds
 * full-width letters, digits and punctuation to their ASCII forms (Ｅ１１．９ → E11.9), letters are
 * lower-cased, and traditional Chinese characters become simplified (年終獎 → 年终奖).
 */
export function normalizeText(text: string): string {
  // ASCII is its own NFKC form and holds no Chinese: only the case is left to fold. Names and ids are
  // often ASCII, and a kn_search compares a few hundred of them with the query.
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  return toSimplified(text.normalize('NFKC').toLowerCase());
}
