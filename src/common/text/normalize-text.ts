import { toSimplified } from './traditional-chinese';

/**
 * The form text is searched in, on both sides (what is indexed and what is asked): NFKC folds
 * full-width letters, digits and punctuation to their ASCII forms (Ｅ１１．９ → E11.9), letters are
 * lower-cased, and traditional Chinese characters become simplified (年終獎 → 年终奖).
 */
export function normalizeText(text: string): string {
  return toSimplified(text.normalize('NFKC').toLowerCase());
}
