import { Language } from '../../config/i18n.config';

type HeaderBag = Record<string, string | string[] | undefined>;

/** Maps the spellings callers use (`zh-CN`, `zh_cn`, `en-us`, `en_US`, `zh-Hans`) to a locale we ship. */
export function normalizeLanguage(raw: string | undefined): Language | undefined {
  if (!raw) return undefined;
  const tag = raw.trim().toLowerCase().replace(/_/g, '-');
  if (tag === 'zh' || tag.startsWith('zh-')) return 'zh-Hans';
  if (tag === 'en' || tag.startsWith('en-')) return 'en-US';
  return undefined;
}

function header(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** `X-Language` first, then the best supported `Accept-Language` entry, then the default. */
export function languageFromHeaders(headers: HeaderBag, fallback: Language): Language {
  const explicit = normalizeLanguage(header(headers, 'x-language'));
  if (explicit) return explicit;
  const acceptLanguage = header(headers, 'accept-language');
  // Most agents send none: every request asks, so the common case allocates nothing.
  if (!acceptLanguage) return fallback;
  const accepted = acceptLanguage
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';');
      const quality = params.find((param) => param.trim().startsWith('q='));
      return { tag, q: quality ? Number(quality.trim().slice(2)) || 0 : 1 };
    })
    .filter((entry) => entry.tag && entry.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const entry of accepted) {
    const language = normalizeLanguage(entry.tag);
    if (language) return language;
  }
  return fallback;
}
