import { Expose, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Max,
  Min,
  ValidateBy,
  ValidationArguments,
} from 'class-validator';

/** Decorators for environment-variable classes: each exposes the variable and validates it. */

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off']);

function toBoolean(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return value;
}

function toInteger(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;
}

function emptyToUndefined(value: unknown): unknown {
  return typeof value === 'string' && value.trim() === '' ? undefined : value;
}

function compose(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => decorators.forEach((decorate) => decorate(target, key));
}

export function EnvInt(min: number, max: number, options: { optional?: boolean } = {}): PropertyDecorator {
  return compose(
    Expose(),
    Transform(({ value }) => toInteger(emptyToUndefined(value))),
    ...(options.optional ? [IsOptional()] : []),
    IsInt({ message: `$property must be an integer between ${min} and ${max}` }),
    Min(min, { message: `$property must be at least ${min}` }),
    Max(max, { message: `$property must be at most ${max}` }),
  );
}

/** A number that must exceed another variable of the same class; skipped while either is not a number. */
export function GreaterThan(other: string): PropertyDecorator {
  const otherValue = (args?: ValidationArguments): unknown => (args?.object as Record<string, unknown>)[other];
  return ValidateBy({
    name: 'greaterThan',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) => {
        const bound = otherValue(args);
        return typeof value !== 'number' || typeof bound !== 'number' || value > bound;
      },
      defaultMessage: (args?: ValidationArguments) =>
        `$property must be greater than ${other} (${String(otherValue(args))})`,
    },
  });
}

export function EnvBool(): PropertyDecorator {
  return compose(
    Expose(),
    Transform(({ value }) => toBoolean(emptyToUndefined(value))),
    IsBoolean({ message: '$property must be true or false' }),
  );
}

export function EnvEnum(values: readonly string[]): PropertyDecorator {
  return compose(
    Expose(),
    Transform(({ value }) => emptyToUndefined(value)),
    IsIn(values, { message: `$property must be one of: ${values.join(', ')}` }),
  );
}

export function EnvString(options: { optional?: boolean } = {}): PropertyDecorator {
  return compose(
    Expose(),
    Transform(({ value }) => emptyToUndefined(value)),
    ...(options.optional ? [IsOptional()] : []),
    IsString({ message: '$property must be a string' }),
  );
}

export function EnvUrl(options: { optional?: boolean } = {}): PropertyDecorator {
  return compose(
    Expose(),
    Transform(({ value }) => emptyToUndefined(value)),
    ...(options.optional ? [IsOptional()] : []),
    IsUrl(
      { require_tld: false, require_protocol: true, protocols: ['http', 'https'] },
      { message: '$property must be an http(s) URL' },
    ),
  );
}

/** What the configuration guide says about one variable. */
export interface VariableDescription {
  text: string;
  /** What an unset optional variable means, when that is not simply "off". */
  whenUnset?: string;
}

// Keyed by the environment class (a decorator sees its prototype's constructor).
const descriptions = new WeakMap<object, Map<string, VariableDescription>>();

/** Documents a variable where it is declared; docs/configuration.md is generated from these. */
export function Describe(text: string, options: { whenUnset?: string } = {}): PropertyDecorator {
  return (target, key) => {
    const owner: object = target.constructor;
    const byName = descriptions.get(owner) ?? new Map<string, VariableDescription>();
    byName.set(String(key), { text, ...options });
    descriptions.set(owner, byName);
  };
}

/** The descriptions of one environment class, by variable name. */
export function describedVariables(envClass: object): ReadonlyMap<string, VariableDescription> {
  return descriptions.get(envClass) ?? new Map();
}
