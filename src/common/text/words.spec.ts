import { distinctWords, tokenize } from './words';

describe('word segmentation', () => {
  it('splits Chinese into lower-cased words and drops punctuation', () => {
    expect(tokenize('糖尿病治疗方案')).toEqual(['糖尿病', '治疗', '方案']);
    expect(tokenize('Kubernetes节点内存泄漏告警！')).toEqual(['kubernetes', '节点', '内存', '泄漏', '告警']);
  });

  it('segments very long text in sentence chunks without losing words', () => {
    const long = '糖尿病患者需要控制血糖。'.repeat(2000);
    const tokens = tokenize(long);
    expect(tokens.filter((token) => token === '糖尿病')).toHaveLength(2000);
  });

  it('lists each distinct word once, in order of first appearance', () => {
    expect(distinctWords('糖尿病 治疗 糖尿病 方案 治疗')).toEqual(['糖尿病', '治疗', '方案']);
    expect(distinctWords('x y '.repeat(1000))).toEqual(['x', 'y']);
  });
});
