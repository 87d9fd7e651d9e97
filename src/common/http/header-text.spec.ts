import { headerText } from './header-text';

describe('headerText', () => {
  it('trims a single value and takes the first of repeated ones', () => {
    expect(headerText('  clinic ')).toBe('clinic');
    expect(headerText([' first', 'second'])).toBe('first');
  });

  it('answers undefined for an absent, empty or blank header', () => {
    expect(headerText(undefined)).toBeUndefined();
    expect(headerText([])).toBeUndefined();
    expect(headerText('   ')).toBeUndefined();
  });
});
