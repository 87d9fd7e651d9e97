import { AppException } from '../../common/errors/app.exception';
import { ValidationErrors } from '../../common/errors/error-codes';
import { requiredDetails } from '../../common/http/required-text';

/**
 * One URL path segment built from a caller-supplied id. encodeURIComponent keeps `/`, `?` and `#`
 * inside the segment; `.` and `..` are refused because URL parsing resolves them (even as `%2e`),
 * which would move the request to another upstream path.
 */
export function pathSegment(field: string, value: string): string {
  const id = typeof value === 'string' ? value : '';
  if (id.trim() === '') {
    throw new AppException(ValidationErrors.Required, requiredDetails(field));
  }
  if (id === '.' || id === '..') {
    throw new AppException(ValidationErrors.Format, `${field} is not a valid identifier`);
  }
  return encodeURIComponent(id);
}
