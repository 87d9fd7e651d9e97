import { fusedSum, separateSum } from './bm25';
import { fts5PhraseSum } from './phrase-sum';

describe('fts5PhraseSum', () => {
  it('finds the way this SQLite build sums phrase scores', () => {
    expect([fusedSum, separateSum]).toContain(fts5PhraseSum());
  });
});
