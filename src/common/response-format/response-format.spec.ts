import { AppException } from '../errors/app.exception';
import { parseResponseFormat } from './response-format';
import { decodeToon, encodeToon } from './toon';

describe('response_format', () => {
  it('defaults to json and accepts toon', () => {
    expect(parseResponseFormat(undefined)).toBe('json');
    expect(parseResponseFormat('')).toBe('json');
    expect(parseResponseFormat('toon')).toBe('toon');
  });

  it('rejects anything else with the allowed values in the details', () => {
    const parse = () => parseResponseFormat('xml');
    expect(parse).toThrow(AppException);
    expect(parse).toThrow(
      expect.objectContaining({ status: 400, details: 'invalid response_format: "xml" (allowed: json, toon)' }),
    );
  });

  it('encodes TOON that decodes back to the same value', () => {
    const value = {
      concepts: [
        { concept_id: 'ot_1', score: 0.5 },
        { concept_id: 'ot_2', score: 0.25 },
      ],
    };
    const text = encodeToon(value);
    expect(text).toContain('concepts[2]{concept_id,score}:');
    expect(decodeToon(text)).toEqual(value);
  });
});
