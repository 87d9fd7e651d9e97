import { languageFromHeaders, normalizeLanguage } from './language';

describe('language selection', () => {
  it.each([
    ['zh-CN', 'zh-Hans'],
    ['zh_cn', 'zh-Hans'],
    ['zh-Hans', 'zh-Hans'],
    ['en-US', 'en-US'],
    ['en_us', 'en-US'],
    ['EN', 'en-US'],
    ['fr-FR', undefined],
    ['', undefined],
  ])('normalises %s to %s', (raw, expected) => {
    expect(normalizeLanguage(raw)).toBe(expected);
  });

  it('prefers X-Language, then the best Accept-Language entry, then the default', () => {
    expect(languageFromHeaders({ 'x-language': 'en_us', 'accept-language': 'zh-CN' }, 'zh-Hans')).toBe('en-US');
    expect(languageFromHeaders({ 'accept-language': 'fr;q=1, en-GB;q=0.8, zh;q=0.5' }, 'zh-Hans')).toBe('en-US');
    expect(languageFromHeaders({ 'x-language': 'klingon' }, 'en-US')).toBe('en-US');
    expect(languageFromHeaders({}, 'zh-Hans')).toBe('zh-Hans');
  });
});
