import { cpSync, existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { resolveFromRoot } from '../../project-root';
import type { ParsedSchema } from '../embedded/bkn/bkn-definitions';
import { NetworkLoader } from '../embedded/network-loader';

export const EXIT_OK = 0;
export const EXIT_PROBLEMS = 1;
export const EXIT_USAGE = 2;

/** The network `init` writes: every kind of BKN file with every section, and data that passes `check`. */
export const STARTER_TEMPLATE = 'examples/starter';

export interface KnCliIo {
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export const USAGE = `Usage: npm run kn -- <command> <dir>

  init <dir>    write a complete example network into <dir> (a KN_DIR holding the folder bookshop/)
  check <dir>   check every network under <dir> (or the network folder <dir> itself) as the service
                does at start-up with KN_STRICT=true; prints file:line: problem for each, exit 1 if any
`;

/** `npm run kn -- init|check <dir>`: scaffolds a network, or checks networks with the service's own loader. */
export function runKnCli(argv: string[], io: KnCliIo): number {
  const [command, dir, ...rest] = argv;
  if (command === 'help' || command === '--help' || command === '-h') {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  if ((command !== 'init' && command !== 'check') || !dir || rest.length > 0) {
    io.stderr(`kn: expected init <dir> or check <dir>\n${USAGE}`);
    return EXIT_USAGE;
  }
  const target = path.resolve(io.cwd, dir);
  return command === 'init' ? init(target, io) : check(target, io);
}

function init(target: string, io: KnCliIo): number {
  if (existsSync(target) && readdirSync(target).length > 0) {
    io.stderr(`kn: ${target} is not empty; init writes only into a new or empty folder\n`);
    return EXIT_USAGE;
  }
  cpSync(resolveFromRoot(STARTER_TEMPLATE), target, { recursive: true });
  const shown = path.relative(io.cwd, target) || '.';
  io.stdout(
    `wrote ${path.join(shown, 'bookshop')}/\n` +
      `next: npm run kn -- check ${shown}\n` +
      // npm start runs from the package folder, so the service needs the absolute path.
      `      KN_DIR=${target} npm start\n`,
  );
  return EXIT_OK;
}

function check(target: string, io: KnCliIo): number {
  if (!existsSync(target)) {
    io.stderr(`kn: ${target} does not exist\n`);
    return EXIT_USAGE;
  }
  // A network folder itself, or a KN_DIR holding network folders.
  const single = existsSync(path.join(target, 'network.bkn'));
  const root = single ? path.dirname(target) : target;
  const loader = new NetworkLoader(root, io.cwd);
  const folders = single ? [target] : loader.folders();
  if (folders.length === 0) {
    io.stderr(`kn: no network folders under ${target}\n`);
    return EXIT_PROBLEMS;
  }
  const owners = new Map<string, string>();
  let problems = 0;
  for (const folder of folders) {
    const result = loader.check(folder);
    const errors = [...result.errors.map((error) => error.message), ...result.missingColumns];
    const id = result.schema?.network.id;
    const rootFile = loader.relative(path.join(folder, 'network.bkn'));
    if (id && owners.has(id)) errors.push(`${rootFile}:1: network id "${id}" is already served from ${owners.get(id)}`);
    else if (id) owners.set(id, loader.relative(folder));
    for (const warning of result.warnings) io.stderr(`warning: ${warning}\n`);
    for (const error of errors) io.stdout(`${error}\n`);
    problems += errors.length;
    if (errors.length === 0 && result.schema)
      io.stderr(summaryOf(loader.relative(folder), result.schema, result.instances));
  }
  if (problems > 0) io.stderr(`kn: ${problems} problem${problems === 1 ? '' : 's'}\n`);
  return problems > 0 ? EXIT_PROBLEMS : EXIT_OK;
}

function summaryOf(folder: string, schema: ParsedSchema, instances: number): string {
  return (
    `ok ${folder}: network "${schema.network.id}", ${schema.objectTypes.length} object types, ` +
    `${schema.relationTypes.length} relation types, ${schema.actionTypes.length} action types, ` +
    `${schema.conceptGroups.length} concept groups, ${schema.metricTypes.length} metrics, ${instances} instances\n`
  );
}
