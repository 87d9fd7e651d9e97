import { BknFormatError } from './bkn/bkn-format.error';
import { Glossary, parseGlossary } from './glossary';

describe('Glossary', () => {
  const glossary = new Glossary({ 腹泻: ['拉肚子'], 糖尿病: ['diabetes', 'DM'], NotReady: ['not ready', '未就绪'] });

  it('replaces a variant by the term the data uses, in Chinese and in English', () => {
    expect(glossary.rewrite('孩子拉肚子怎么办')).toBe('孩子 腹泻 怎么办');
    expect(glossary.rewrite('Diabetes medication')).toBe('糖尿病 medication');
    expect(glossary.rewrite('节点未就绪')).toBe('节点 notready');
    expect(glossary.rewrite('node NOT READY')).toBe('node notready');
  });

  it('matches a Latin variant as a whole word only and leaves other queries untouched', () => {
    expect(glossary.rewrite('admin DM')).toBe('admin 糖尿病');
    expect(glossary.rewrite('admin panel')).toBe('admin panel');
    expect(new Glossary().rewrite('拉肚子')).toBe('拉肚子');
  });

  it('parses term → variants and refuses anything else, naming the file', () => {
    expect(parseGlossary('g.yaml', '腹泻: [拉肚子, 拉稀]\n痛风: gout\n')).toEqual({
      腹泻: ['拉肚子', '拉稀'],
      痛风: ['gout'],
    });
    expect(parseGlossary('g.yaml', '# nothing yet\n')).toEqual({});
    expect(() => parseGlossary('g.yaml', '- a\n- b\n')).toThrow(BknFormatError);
    expect(() => parseGlossary('g.yaml', '腹泻: [1]\n')).toThrow('g.yaml:1: "腹泻" must list its variants as strings');
    expect(() => parseGlossary('g.yaml', `x: [${'长'.repeat(33)}]\n`)).toThrow('1 to 32 characters');
  });
});
