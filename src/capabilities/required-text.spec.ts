import { plainToInstance } from 'class-transformer';
import { IsString, validate } from 'class-validator';
import { z } from 'zod';
import { AppException } from '../errors/app.exception';
import { ValidationErrors } from '../errors/error-codes';
import { validationException } from '../errors/validation';
import { parseArguments } from '../mcp/mcp-tool-arguments';
import { IsRequiredText, requiredText } from './required-text';

class Body {
  @IsRequiredText()
  @IsString()
  query!: string;
}

/** The REST door: class-transformer then class-validator, as the global ValidationPipe runs them. */
async function restDoor(body: object): Promise<string | AppException> {
  const instance = plainToInstance(Body, body);
  const errors = await validate(instance);
  return errors.length === 0 ? instance.query : validationException(errors);
}

/** The MCP door: the tool runner's argument parser over the tool's Zod schema. */
function mcpDoor(args: Record<string, unknown>): string | AppException {
  try {
    return parseArguments(z.looseObject({ query: requiredText() }), args).query;
  } catch (error) {
    return error as AppException;
  }
}

describe('required text (query)', () => {
  it.each([[{}], [{ query: null }], [{ query: '' }], [{ query: ' \t\n' }]])(
    'both doors refuse %j with the same Required error',
    async (body) => {
      const rest = await restDoor(body);
      const mcp = mcpDoor(body as Record<string, unknown>);
      for (const outcome of [rest, mcp]) {
        expect(outcome).toBeInstanceOf(AppException);
        expect((outcome as AppException).definition).toBe(ValidationErrors.Required);
        expect((outcome as AppException).details).toBe('query is required');
      }
    },
  );

  it('both doors trim the text and name a wrong type as a type error', async () => {
    expect(await restDoor({ query: '  糖尿病  ' })).toBe('糖尿病');
    expect(mcpDoor({ query: '  糖尿病  ' })).toBe('糖尿病');
    expect(((await restDoor({ query: 42 })) as AppException).definition).toBe(ValidationErrors.Type);
    expect((mcpDoor({ query: 42 }) as AppException).definition).toBe(ValidationErrors.Type);
  });
});
