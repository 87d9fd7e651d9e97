import { normalizeText } from './normalize-text';
import { distinctWords } from './words';

describe('normalizeText', () => {
  it('folds full-width forms and letter case', () => {
    expect(normalizeText('Ｅ１１．９ ＯＯＭＫｉｌｌｅｄ')).toBe('e11.9 oomkilled');
  });

  it('turns traditional Chinese into simplified and leaves simplified text as it is', () => {
    expect(normalizeText('年終獎 高血壓 二甲雙胍 競業限制')).toBe('年终奖 高血压 二甲双胍 竞业限制');
    const simplified = '年终奖 高血压';
    expect(normalizeText(simplified)).toBe(simplified);
  });

  it('makes a traditional query and simplified data the same words', () => {
    expect(distinctWords('骨質疏鬆症')).toEqual(distinctWords('骨质疏松症'));
  });
});

describe('normalizeText on ASCII', () => {
  it('gives what the full folding gives, for every ASCII character', () => {
    const ascii = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)).join('');
    expect(normalizeText(ascii)).toBe(ascii.normalize('NFKC').toLowerCase());
    expect(normalizeText('Order O0000001 / SKU-42')).toBe('order o0000001 / sku-42');
  });
});
