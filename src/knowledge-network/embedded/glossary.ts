import { parseDocument } from 'yaml';
import { normalizeText } from '../../common/text/normalize-text';
import { BknFormatError } from './bkn/bkn-format.error';

/** A network's glossary as plain data: each term as its data writes it → the words people use instead. */
export type GlossaryEntries = Record<string, string[]>;

/** Bounds that keep a query rewrite cheap whatever the glossary holds. */
export const GLOSSARY_LIMITS = { variants: 20000, variantLength: 32 } as const;

const LATIN_WORD = /[\p{L}\p{N}]/u;
const isLatinWordChar = (char: string | undefined): boolean =>
  char !== undefined && LATIN_WORD.test(char) && !/\p{Script=Han}/u.test(char);

/**
 * Query expansion from a network's `glossary.yaml`: a query's synonyms, abbreviations and translations
 * are replaced by the term the data uses, before the query becomes a keyword search (拉肚子 → 腹泻,
 * diabetes → 糖尿病). Matching is on normalised text; a Latin variant matches whole words only, so `dm`
 * never fires inside `admin`. The rewrite costs one map lookup per (position, variant length).
 */
export class Glossary {
  private readonly variants = new Map<string, string>();
  private readonly longest: number;

  constructor(readonly entries: GlossaryEntries = {}) {
    for (const [term, variants] of Object.entries(entries)) {
      for (const variant of variants) this.variants.set(normalizeText(variant), normalizeText(term));
    }
    this.longest = Math.max(0, ...[...this.variants.keys()].map((variant) => variant.length));
  }

  get size(): number {
    return this.variants.size;
  }

  /** The query with every variant replaced by its term (longest variant first at each position). */
  rewrite(query: string): string {
    if (this.variants.size === 0) return query;
    const text = normalizeText(query);
    let out = '';
    let changed = false;
    for (let i = 0; i < text.length;) {
      const match = this.variantAt(text, i);
      if (match) {
        out += ` ${match.term} `;
        i += match.length;
        changed = true;
      } else {
        out += text[i];
        i += 1;
      }
    }
    return changed ? out.replace(/ {2,}/g, ' ').trim() : query;
  }

  private variantAt(text: string, start: number): { term: string; length: number } | undefined {
    if (isLatinWordChar(text[start - 1]) && isLatinWordChar(text[start])) return undefined;
    for (let length = Math.min(this.longest, text.length - start); length > 0; length -= 1) {
      const term = this.variants.get(text.slice(start, start + length));
      if (term === undefined) continue;
      if (isLatinWordChar(text[start + length - 1]) && isLatinWordChar(text[start + length])) continue;
      return { term, length };
    }
    return undefined;
  }
}

/**
 * Parses `glossary.yaml`: a mapping of term → list of variants (or one variant as a string). Anything
 * else, a blank or over-long variant, or more variants than GLOSSARY_LIMITS allows, is a format error.
 */
export function parseGlossary(file: string, text: string): GlossaryEntries {
  const document = parseDocument(text);
  if (document.errors.length > 0) {
    const error = document.errors[0];
    throw new BknFormatError(file, error.linePos?.[0].line ?? 1, error.message.split('\n')[0]);
  }
  const value: unknown = document.toJS();
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new BknFormatError(file, 1, 'a glossary maps each term to a list of its variants');
  const entries: GlossaryEntries = {};
  let count = 0;
  for (const [term, raw] of Object.entries(value as Record<string, unknown>)) {
    const variants = typeof raw === 'string' ? [raw] : raw;
    if (!Array.isArray(variants) || variants.some((variant) => typeof variant !== 'string'))
      throw new BknFormatError(file, 1, `"${term}" must list its variants as strings`);
    for (const variant of variants as string[]) {
      const length = normalizeText(variant).trim().length;
      if (length === 0 || length > GLOSSARY_LIMITS.variantLength)
        throw new BknFormatError(
          file,
          1,
          `"${term}": each variant needs 1 to ${GLOSSARY_LIMITS.variantLength} characters`,
        );
    }
    count += variants.length;
    if (count > GLOSSARY_LIMITS.variants)
      throw new BknFormatError(file, 1, `more than ${GLOSSARY_LIMITS.variants} variants`);
    entries[term] = (variants as string[]).map((variant) => variant.trim());
  }
  return entries;
}
