/**
 * The environment of a process a test starts (the built service, the CLI): only the variables the test
 * names, plus what every child needs — PATH, TMPDIR (the run's own temp folder, removed when it ends),
 * and the better-sqlite3 build for another Node ABI when scripts/test-node22.sh runs the suite
 * (SQLITE_NATIVE_BINDING). Never the rest of the developer's shell.
 */
export function childEnv(env: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const inherited: NodeJS.ProcessEnv = { PATH: process.env.PATH };
  if (process.env.TMPDIR) inherited.TMPDIR = process.env.TMPDIR;
  if (process.env.SQLITE_NATIVE_BINDING) inherited.SQLITE_NATIVE_BINDING = process.env.SQLITE_NATIVE_BINDING;
  return { ...inherited, ...env };
}
