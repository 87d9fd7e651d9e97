import { DocumentText } from './document-text';
import { chunkDocument } from './passage-chunker';

const doc = (lines: string[], firstLine = 1): DocumentText => ({ lines, firstLine });

describe('chunkDocument', () => {
  it('cuts at headings and gives each passage its heading path and line range', () => {
    const passages = chunkDocument(
      doc(['# 糖尿病', 'intro line', '## 饮食', '少糖', '多蔬菜', '## 运动', '每天步行'], 4),
    );
    expect(passages).toEqual([
      { content: 'intro line', headingPath: ['糖尿病'], startLine: 5, endLine: 5 },
      { content: '少糖\n多蔬菜', headingPath: ['糖尿病', '饮食'], startLine: 7, endLine: 8 },
      { content: '每天步行', headingPath: ['糖尿病', '运动'], startLine: 10, endLine: 10 },
    ]);
  });

  it('drops the deeper headings when a shallower one comes, and skips empty levels', () => {
    const passages = chunkDocument(doc(['# A', '### A.x.1', 'deep', '# B', 'top']));
    expect(passages.map((passage) => passage.headingPath)).toEqual([['A', 'A.x.1'], ['B']]);
  });

  it('reads a heading inside fenced code as text', () => {
    const passages = chunkDocument(doc(['# Setup', '```bash', '# not a heading', '```', 'after']));
    expect(passages).toHaveLength(1);
    expect(passages[0].headingPath).toEqual(['Setup']);
    expect(passages[0].content).toContain('# not a heading');
  });

  it('cuts a long section at line boundaries near the size, repeating up to `overlap` characters', () => {
    const lines = Array.from({ length: 10 }, (_, index) => `line ${index} `.padEnd(30, 'x'));
    const passages = chunkDocument(doc(lines), { size: 100, overlap: 35 });
    expect(passages.length).toBeGreaterThan(2);
    for (const passage of passages) expect(passage.content.length).toBeLessThanOrEqual(100);
    // Each passage after the first starts with the last line of the one before (31 characters ≤ 35).
    for (let index = 1; index < passages.length; index += 1) {
      expect(passages[index].startLine).toBe(passages[index - 1].endLine);
    }
    expect(passages[passages.length - 1].endLine).toBe(10);
  });

  it('never makes a passage of overlap alone', () => {
    const lines = ['a'.repeat(60), 'b'.repeat(60)];
    const passages = chunkDocument(doc(lines), { size: 100, overlap: 80 });
    expect(passages.map((passage) => passage.content)).toEqual([
      'a'.repeat(60),
      `${'a'.repeat(60)}\n${'b'.repeat(60)}`,
    ]);
  });

  it('cuts a line longer than a passage at sentence ends, else hard', () => {
    const sentence = '血糖控制很重要。';
    const passages = chunkDocument(doc([sentence.repeat(20)]), { size: 50, overlap: 0 });
    expect(passages.length).toBeGreaterThan(1);
    for (const passage of passages) {
      expect(passage.content.length).toBeLessThanOrEqual(50);
      expect(passage.content.endsWith('。')).toBe(true);
    }
    expect(passages.map((passage) => passage.content).join('')).toBe(sentence.repeat(20));
    const hard = chunkDocument(doc(['x'.repeat(120)]), { size: 50, overlap: 0 });
    expect(hard.map((passage) => passage.content.length)).toEqual([50, 50, 20]);
  });

  it('makes no passage of blank lines', () => {
    expect(chunkDocument(doc(['', '   ', '# Only a heading', '']))).toEqual([]);
  });
});
