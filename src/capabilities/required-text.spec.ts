import { z } from 'zod';
import { AppException } from '../common/errors/app.exception';
import { ValidationErrors } from '../common/errors/error-codes';
import { LocalizedDetails } from '../common/errors/localized-details';
import { requiredText } from '../common/http/required-text';
import { parseInput } from './capability-input';

/** Every door's validation: the capability's zod schema through parseInput. */
function validated(args: Record<string, unknown>): string | AppException {
  try {
    return parseInput(z.looseObject({ query: requiredText() }), args).query;
  } catch (error) {
    return error as AppException;
  }
}

describe('required text (query)', () => {
  it.each([[{}], [{ query: null }], [{ query: '' }], [{ query: ' \t\n' }]])(
    'refuses %j with the Required error "query is required"',
    (args) => {
      const outcome = validated(args);
      expect(outcome).toBeInstanceOf(AppException);
      expect((outcome as AppException).definition).toBe(ValidationErrors.Required);
      expect((outcome as AppException).message).toBe('query is required');
    },
  );

  it('trims the text', () => {
    expect(validated({ query: '  糖尿病  ' })).toBe('糖尿病');
  });

  it.each([[42], [['a']], [{ text: 'a' }], [true]])('names %j as a type error, not a missing field', (query) => {
    const outcome = validated({ query }) as AppException;
    expect(outcome.definition).toBe(ValidationErrors.Type);
    expect(outcome.details).toEqual(
      new LocalizedDetails('validation.type', { field: 'query', expected: 'string', received: typeOf(query) }),
    );
  });
});

const typeOf = (value: unknown): string => (Array.isArray(value) ? 'array' : typeof value);
