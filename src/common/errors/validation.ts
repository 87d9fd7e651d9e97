import { getMetadataStorage, ValidationError } from 'class-validator';
import { REQUIRED_TEXT_RULE, requiredMessage } from '../http/required-text';
import { AppException } from './app.exception';
import { ErrorDefinition, ValidationErrors } from './error-codes';
import { LocalizedDetails } from './localized-details';

const TYPE_RULES: Record<string, string> = {
  isString: 'string',
  isInt: 'integer',
  isNumber: 'number',
  isBoolean: 'boolean',
  isArray: 'array',
  isObject: 'object',
  isNotEmptyObject: 'object',
  nestedValidation: 'object',
};

const RANGE_RULES = new Set(['min', 'max', 'minLength', 'maxLength', 'arrayMinSize', 'arrayMaxSize']);
const ENUM_RULES = new Set(['isIn', 'isEnum']);

interface Failure {
  path: string;
  error: ValidationError;
}

function firstFailure(errors: ValidationError[], prefix = ''): Failure | undefined {
  for (const error of errors) {
    const path = /^\d+$/.test(error.property)
      ? `${prefix}[${error.property}]`
      : prefix
        ? `${prefix}.${error.property}`
        : error.property;
    if (error.constraints && Object.keys(error.constraints).length > 0) return { path, error };
    const nested = firstFailure(error.children ?? [], path);
    if (nested) return nested;
  }
  return undefined;
}

function constraintArgs(error: ValidationError, rule: string): unknown[] {
  if (!error.target) return [];
  const metadata = getMetadataStorage()
    .getTargetValidationMetadatas(error.target.constructor, '', true, false)
    .find((entry) => entry.propertyName === error.property && (entry.name === rule || entry.type === rule));
  return metadata?.constraints ?? [];
}

function describeEnum(args: unknown[]): string {
  const options = args[0];
  if (Array.isArray(options)) return options.join(', ');
  if (options && typeof options === 'object') return Object.values(options).join(', ');
  return '';
}

/** The first failing field of a class-validator run, named by its JSON path, as an AppException. */
export function validationException(errors: ValidationError[]): AppException {
  const failure = firstFailure(errors);
  if (!failure) return new AppException(ValidationErrors.Format, 'request is invalid');
  const { path, error } = failure;
  if (error.constraints && REQUIRED_TEXT_RULE in error.constraints)
    return new AppException(ValidationErrors.Required, requiredMessage(path));
  const rule = Object.keys(error.constraints ?? {})[0];
  const message = error.constraints?.[rule] ?? '';
  const field = { field: path };
  let definition: ErrorDefinition;
  let details: LocalizedDetails;
  if (error.value === undefined || error.value === null || rule === 'isDefined' || rule === 'isNotEmpty') {
    definition = ValidationErrors.Required;
    details = new LocalizedDetails('validation.required', field);
  } else if (TYPE_RULES[rule]) {
    definition = ValidationErrors.Type;
    details = new LocalizedDetails('validation.type', { ...field, expected: TYPE_RULES[rule] });
  } else if (RANGE_RULES.has(rule)) {
    definition = ValidationErrors.Range;
    const limit = constraintArgs(error, rule)[0];
    details = new LocalizedDetails(`validation.${rule}`, { ...field, limit: String(limit ?? '') });
  } else if (ENUM_RULES.has(rule)) {
    definition = ValidationErrors.Enum;
    details = new LocalizedDetails('validation.enum', { ...field, options: describeEnum(constraintArgs(error, rule)) });
  } else {
    definition = ValidationErrors.Format;
    details = new LocalizedDetails('validation.unknown', { ...field, message });
  }
  return new AppException(definition, details);
}
