import { parseArgs } from 'node:util';
import { NumericRange } from '../../common/limits/numeric-range';
import { CODE_QUERY_MAX_LENGTH, FUSION_DEPTH, TOKEN_BUDGET } from '../code-tools.limits';

export type OutputFormat = 'json' | 'text';

export interface GraphRagCliArgs {
  help: boolean;
  query: string;
  format: OutputFormat;
  fusionDepth?: number;
  budget?: number;
  codeRoot?: string;
}

/** Bad command-line arguments (exit code 1). */
export class CliUsageError extends Error {}

export const USAGE = `Usage: graph-rag --query <text> [--format json|text] [--fusion-depth ${FUSION_DEPTH.min}-${FUSION_DEPTH.max}] [--budget <tokens>] [--code-root <dir>]

Searches the code under --code-root (else CODE_ROOT, else the current directory), expands the hits
through CKB or the local import graph, and prints candidates with their CKB metadata.

Environment: CKB_COMMAND / CKB_URL, CKB_ENABLED, CKB_TIMEOUT_MS, CKB_COOLDOWN_S, DATA_DIR, REDIS_URL.
Exit codes: 0 ok, 1 bad arguments or configuration, 3 query failed.
`;

function integerOption(name: string, raw: string | undefined, { min, max }: NumericRange): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw.trim()))
    throw new CliUsageError(`--${name} must be an integer between ${min} and ${max} (got "${raw}")`);
  const value = Number(raw.trim());
  if (value < min || value > max) throw new CliUsageError(`--${name} must be between ${min} and ${max} (got ${value})`);
  return value;
}

/** Parses and checks the arguments; throws CliUsageError with a message naming the bad option. */
export function parseGraphRagArgs(argv: string[]): GraphRagCliArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        query: { type: 'string', short: 'q' },
        format: { type: 'string', default: 'json' },
        'fusion-depth': { type: 'string' },
        budget: { type: 'string' },
        'code-root': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (error) {
    throw new CliUsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return { help: true, query: '', format: 'json' };
  const query = values.query?.trim();
  if (!query) throw new CliUsageError('--query is required and must not be empty');
  if (query.length > CODE_QUERY_MAX_LENGTH) {
    throw new CliUsageError(`--query must be at most ${CODE_QUERY_MAX_LENGTH} characters`);
  }
  if (values.format !== 'json' && values.format !== 'text')
    throw new CliUsageError(`--format must be json or text (got "${values.format}")`);
  return {
    help: false,
    query,
    format: values.format,
    fusionDepth: integerOption('fusion-depth', values['fusion-depth'], FUSION_DEPTH),
    budget: integerOption('budget', values.budget, TOKEN_BUDGET),
    codeRoot: values['code-root'],
  };
}
