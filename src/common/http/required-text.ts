import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';
import { z } from 'zod';

/** The documented sentence for a missing or blank required field (`query is required`). */
export const requiredMessage = (field: string): string => `${field} is required`;

/** class-validator's name for the rule; the validation exception answers it with `requiredMessage`. */
export const REQUIRED_TEXT_RULE = 'isRequiredText';

/** Absent, null and blank strings fail; other types pass here so the type rule beside it names them. */
const present = (value: unknown): boolean =>
  value !== undefined && value !== null && (typeof value !== 'string' || value.trim() !== '');

/**
 * A required free-text field (a question, keywords): REST bodies trim it and refuse absent or blank
 * text with `<field> is required`, exactly as the tool schema built by `requiredText()` does.
 */
export function IsRequiredText(): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value)),
    ValidateBy({
      name: REQUIRED_TEXT_RULE,
      validator: { validate: present, defaultMessage: (args) => requiredMessage(args?.property ?? 'value') },
    }),
  );
}

/** The same rule for MCP tool arguments: a trimmed non-blank string (`parseArguments` words the error). */
export function requiredText(): z.ZodType<string> {
  return z
    .string()
    .trim()
    .refine((value) => value !== '', { params: { rule: REQUIRED_TEXT_RULE } });
}
