import { fusedSum, separateSum } from './bm25';
import { fts5PhraseSum } from './phrase-sum';

describe('fts5PhraseSum', () => {
  it('finds the way this SQLite build sums phrase scores', () => {
    const sum = fts5PhraseSum();
    console.log(sum === fusedSum ? 'fused' : sum === separateSum ? 'separate' : 'none');
    expect([fusedSum, separateSum]).toContain(sum);
  });
});
