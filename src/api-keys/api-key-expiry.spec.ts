import { ExpiryError, isDuration, MAX_LIFETIME_MS, parseDuration, parseIsoDate } from './api-key-expiry';

const NOW = Date.parse('2026-11-25T12:00:00Z');

describe('API key expiry', () => {
  it.each([
    ['45s', 45_000],
    ['90m', 90 * 60_000],
    ['12h', 12 * 3_600_000],
    ['30d', 30 * 86_400_000],
  ])('reads the lifetime %s', (text, lifetime) => {
    expect(isDuration(text)).toBe(true);
    expect(parseDuration(text, NOW)).toBe(NOW + lifetime);
  });

  it.each([
    ['2027-01-31', '2027-01-31T00:00:00.000Z'],
    ['2027-01-31T18:00Z', '2027-01-31T18:00:00.000Z'],
    ['2027-01-31T18:00:30.5Z', '2027-01-31T18:00:30.500Z'],
    ['2027-01-31T18:00:00+08:00', '2027-01-31T10:00:00.000Z'],
    ['2028-02-29', '2028-02-29T00:00:00.000Z'],
  ])('reads the ISO 8601 time %s', (text, expected) => {
    expect(isDuration(text)).toBe(false);
    expect(new Date(parseIsoDate(text, NOW)).toISOString()).toBe(expected);
  });

  it.each([
    ['0s', parseDuration, 'must be in the future'],
    ['3651d', parseDuration, 'at most 3650 days'],
    ['30 d', parseDuration, 'duration such as 30d'],
    ['1w', parseDuration, 'duration such as 30d'],
    ['2026-11-24', parseIsoDate, 'must be in the future'],
    ['2027-02-30', parseIsoDate, 'not a calendar date'],
    ['2027-13-01', parseIsoDate, 'not a calendar date'],
    ['2027-01-31T18:00', parseIsoDate, 'with a zone'],
    ['2027-01-31T25:00Z', parseIsoDate, 'ISO 8601'],
    ['tomorrow', parseIsoDate, 'ISO 8601'],
    ['2040-01-01', parseIsoDate, 'at most 3650 days'],
  ])('refuses %s', (text, parse, message) => {
    expect(() => parse(text, NOW)).toThrow(ExpiryError);
    expect(() => parse(text, NOW)).toThrow(message);
  });

  it('allows exactly ten years', () => {
    expect(parseDuration('3650d', NOW)).toBe(NOW + MAX_LIFETIME_MS);
  });
});
