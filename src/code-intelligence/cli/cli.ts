import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ConfigError, loadConfig } from '../../config';
import { withCkbMetadata } from '../../ckb-health/ckb-metadata';
import { CliUsageError, GraphRagCliArgs, parseGraphRagArgs, USAGE } from './cli-args';
import { formatGraphRagText } from './cli-output';
import { CodeToolServices, createCodeToolServices } from '../code-tools.factory';

export const EXIT_OK = 0;
export const EXIT_BAD_ARGUMENTS = 1;
export const EXIT_QUERY_FAILED = 3;

export interface CliIo {
  env: Record<string, string | undefined>;
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** `graph-rag`: the ci_graph_rag tool from the command line (seed 001's contract tests drive it). */
export async function runGraphRagCli(argv: string[], io: CliIo): Promise<number> {
  let args: GraphRagCliArgs;
  try {
    args = parseGraphRagArgs(argv);
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    io.stderr(`graph-rag: ${error.message}\n\n${USAGE}`);
    return EXIT_BAD_ARGUMENTS;
  }
  if (args.help) {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  let config;
  try {
    config = loadConfig(io.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr(`graph-rag: ${error.message}\n`);
    return EXIT_BAD_ARGUMENTS;
  }
  // --code-root is relative to where the command runs; with neither it nor CODE_ROOT, index the current directory.
  const codeRoot = args.codeRoot ? path.resolve(io.cwd, args.codeRoot) : (config.ckb.codeRoot ?? io.cwd);
  const startedAt = performance.now();
  let services: CodeToolServices | undefined;
  try {
    services = createCodeToolServices(config.ckb, config.redis, codeRoot);
    const outcome = await services.graphRag.graphRag({
      query: args.query,
      fusion_depth: args.fusionDepth,
      budget: args.budget,
    });
    const output = withCkbMetadata(outcome, startedAt);
    io.stdout(args.format === 'json' ? `${JSON.stringify(output, null, 2)}\n` : formatGraphRagText(output));
    return EXIT_OK;
  } catch (error) {
    io.stderr(`graph-rag: query failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT_QUERY_FAILED;
  } finally {
    await services?.close();
  }
}

/** Entry point of bin/graph-rag.js: real process I/O, Nest's console logger silenced so stdout stays JSON. */
export function main(argv: string[] = process.argv.slice(2)): Promise<number> {
  Logger.overrideLogger(false);
  return runGraphRagCli(argv, {
    env: process.env,
    cwd: process.cwd(),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  });
}

if (require.main === module) {
  void main().then((code) => {
    process.exitCode = code;
  });
}
