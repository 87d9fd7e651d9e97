import { z } from 'zod';
import { LocalizedDetails } from '../errors/localized-details';

/** The documented details for a missing or blank required field (`query is required`), translated. */
export const requiredDetails = (field: string): LocalizedDetails =>
  new LocalizedDetails('validation.requiredField', { field });

/** The rule name a blank required text reports, so validation answers it with `requiredDetails`. */
export const REQUIRED_TEXT_RULE = 'isRequiredText';

/**
 * A required free-text field (a question, keywords): trimmed, and absent or blank text is refused with
 * `<field> is required` at every door (SPEC §3).
 */
export function requiredText(maxLength?: number): z.ZodType<string> {
  const text = z.string().trim();
  return (maxLength === undefined ? text : text.max(maxLength)).refine((value) => value !== '', {
    params: { rule: REQUIRED_TEXT_RULE },
  });
}
