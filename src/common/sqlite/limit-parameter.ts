/**
 * `LIMIT ?` for a statement prepared once and run many times. SQLite (3.53 here) plans with the value
 * bound to a bare `LIMIT ?`, so binding that parameter again expires the statement; better-sqlite3 binds
 * every parameter on every run, so each run was parsed and planned anew (about a fifth of an indexed
 * lookup's time, measured with perf). The planner does not read an expression's value: a statement
 * with this form is prepared once. The bound value must be an integer, as for `LIMIT ?`.
 */
export const LIMIT_PARAMETER = 'LIMIT CAST(? AS INTEGER)';
