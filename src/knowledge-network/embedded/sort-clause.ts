import { AppException } from '../../common/errors/app.exception';
import { KnErrors } from '../knowledge-network.errors';
import { ObjectTable } from './object-table';

const MAX_SORT_KEYS = 5;

/** `ORDER BY` terms for a step's `sort` ([{field, direction}]), over generated column names only. */
export function orderClause(table: ObjectTable, sort: unknown, at: string): string | undefined {
  if (sort === undefined || sort === null) return undefined;
  if (!Array.isArray(sort) || sort.length > MAX_SORT_KEYS) {
    throw new AppException(
      KnErrors.InvalidSubgraphPath,
      `${at} must be an array of at most ${MAX_SORT_KEYS} {field, direction}`,
    );
  }
  if (sort.length === 0) return undefined;
  const terms = sort.map((entry: { field?: unknown; direction?: unknown }, i) => {
    const column = typeof entry?.field === 'string' ? table.column(entry.field) : undefined;
    if (!column) {
      throw new AppException(
        KnErrors.UnknownField,
        `${at}[${i}].field "${String(entry?.field)}" is not a property of object type "${table.type.id}"`,
      );
    }
    const direction = String(entry.direction ?? 'asc').toLowerCase();
    if (direction !== 'asc' && direction !== 'desc') {
      throw new AppException(KnErrors.InvalidSubgraphPath, `${at}[${i}].direction must be asc or desc`);
    }
    return `t.${column} ${direction.toUpperCase()}`;
  });
  return [...terms, 't._rowid'].join(', ');
}
