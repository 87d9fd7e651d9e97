import { locatedItems } from './ckb-result.parse';
import { chunkSource } from './code-index/code-chunker';
import { ftsMatchExpression, identifierParts, queryTerms } from './code-index/identifier-tokens';
import { importSpecifiers } from './code-index/import-parser';
import { relativeToRoot } from './code-path';
import { bestPossibleScore, weightedRrf } from './rrf-fusion';
import { fitToBudget } from './token-budget';

describe('code-index and graph-RAG helpers', () => {
  it('splits identifiers on camelCase, acronyms, digits and snake_case', () => {
    expect(identifierParts('getHTTPServer2')).toEqual(['get', 'http', 'server', '2']);
    expect(identifierParts('convert_units')).toEqual(['convert', 'units']);
    expect(queryTerms('placeOrder total')).toEqual(['placeorder', 'place', 'order', 'total']);
    expect(ftsMatchExpression(['a"b', 'ok'])).toBe('"ab" OR "ok"');
  });

  it('chunks TypeScript by class and method, and Go by func', () => {
    const ts = chunkSource({
      path: 'a.ts',
      language: 'typescript',
      text: "import x from './x';\n\nexport class Shop {\n  open(): void {\n    if (x) {\n      x();\n    }\n  }\n}\n",
    });
    expect(ts.map((chunk) => [chunk.kind, chunk.symbol, chunk.startLine])).toEqual([
      ['header', null, 1],
      ['class', 'Shop', 3],
      ['function', 'open', 4],
    ]);
    const go = chunkSource({
      path: 'm.go',
      language: 'go',
      text: 'package m\n\nfunc (s *S) Run() {}\n\ntype S struct{}\n',
    });
    expect(go.map((chunk) => chunk.symbol)).toEqual([null, 'Run', 'S']);
  });

  it('cuts files without boundaries into line windows', () => {
    const text = Array.from({ length: 150 }, (_, line) => `x${line} = ${line}`).join('\n');
    const chunks = chunkSource({ path: 'data.py', language: 'python', text });
    expect(chunks.map((chunk) => [chunk.startLine, chunk.endLine])).toEqual([
      [1, 60],
      [61, 120],
      [121, 150],
    ]);
  });

  it('reads import statements of each language', () => {
    expect(
      importSpecifiers(
        'typescript',
        "import { a } from './a';\nexport * from '../b';\nconst c = require('./c');\nimport('./d');",
      ),
    ).toEqual(['./a', '../b', './c', './d']);
    expect(
      importSpecifiers(
        'python',
        'from . import helpers, models\nfrom ..utils.units import convert\nimport os, pkg.mod\nfrom .a import (\n  b,\n  c,\n)',
      ),
    ).toEqual(['.helpers', '.models', '..utils.units', '.a', 'os', 'pkg.mod']);
    expect(importSpecifiers('go', 'import (\n\t"fmt"\n\tt "example.com/x/tracker"\n)\n')).toEqual([
      'fmt',
      'example.com/x/tracker',
    ]);
  });

  it('collects located items from CKB results of different shapes', () => {
    expect(
      locatedItems({
        root: 'sym:a',
        callers: [{ stableId: 'sym:b', name: 'b', location: { fileId: 'b.ts', startLine: 3 }, depth: 2 }],
        references: [{ range: { uri: 'file:///repo/c.ts', start: { line: 9 } } }],
      }),
    ).toEqual([
      { id: 'sym:b', name: 'b', file: 'b.ts', line: 3, depth: 2, role: 'callers' },
      { id: undefined, name: undefined, file: '/repo/c.ts', line: 9, depth: undefined, role: undefined },
    ]);
    expect(locatedItems('plain text')).toEqual([]);
  });

  it('keeps CKB paths inside the code root', () => {
    expect(relativeToRoot('/repo/src/a.ts', '/repo')).toBe('src/a.ts');
    expect(relativeToRoot('./src/a.ts', '/repo')).toBe('src/a.ts');
    expect(relativeToRoot('../etc/passwd', '/repo')).toBeUndefined();
    expect(relativeToRoot('/etc/passwd', '/repo')).toBeUndefined();
  });

  it('fuses ranked lists with weighted RRF (k = 60)', () => {
    const lists = [
      { weight: 0.8, keys: ['a', 'b'] },
      { weight: 0.2, keys: ['b', 'c'] },
    ];
    const scores = weightedRrf(lists);
    expect(scores.get('a')).toBeCloseTo(0.8 / 61);
    expect(scores.get('b')).toBeCloseTo(0.8 / 62 + 0.2 / 61);
    expect(scores.get('c')).toBeCloseTo(0.2 / 62);
    expect(bestPossibleScore(lists)).toBeCloseTo(1 / 61);
  });

  it('fits candidates into the token budget, cutting the one that overflows', () => {
    const candidate = (content: string) => ({
      file: 'f',
      relevance: 1,
      content,
      source: 'keyword' as const,
      distance: 0,
      start_line: 1,
      end_line: 1,
    });
    const { kept, tokens } = fitToBudget([candidate('a'.repeat(200)), candidate('b'.repeat(400)), candidate('c')], 100);
    expect(kept.map((entry) => [entry.content.length, entry.truncated])).toEqual([
      [200, undefined],
      [200, true],
    ]);
    expect(tokens).toBe(100);
  });
});
