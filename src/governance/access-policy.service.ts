import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { existsSync, readFileSync, Stats, statSync } from 'node:fs';
import { configToken, GovernanceConfig } from '../config';
import { resolveFromRoot } from '../project-root';
import { AccessPolicy, ParseOptions, PolicyError } from './access-policy';

/** Where the policy text comes from: inline JSON, a file, or nothing (the default policy). */
interface PolicySource {
  variable: 'ACCESS_POLICY' | 'CHAT_TOOL_POLICY';
  file?: string;
  inline?: string;
}

// Polling survives what editors and Kubernetes do to a file (rename over it, swap a symlink).
const WATCH_INTERVAL_MS = 1000;

/** What tells one version of a file from the next. */
type FileVersion = Pick<Stats, 'mtimeMs' | 'size' | 'ino'> | undefined;

function versionOf(file: string): FileVersion {
  try {
    const { mtimeMs, size, ino } = statSync(file);
    return { mtimeMs, size, ino };
  } catch {
    return undefined;
  }
}

const sameVersion = (a: FileVersion, b: FileVersion): boolean =>
  a === b || (!!a && !!b && a.mtimeMs === b.mtimeMs && a.size === b.size && a.ino === b.ino);

/**
 * The access policy in force. Read and validated at boot (a bad policy stops the start with a message
 * naming the problem); a policy file is re-read when it changes and on SIGHUP, and a reload that fails
 * keeps the policy in force and logs why. `version` changes with every successful reload, so callers
 * may cache what they derive from a policy.
 */
@Injectable()
export class AccessPolicyService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('AccessPolicy');
  private readonly source?: PolicySource;
  private current: AccessPolicy;
  private revision = 0;
  /** The file as it was when last read, good or bad: a change is any difference from it. */
  private seen: FileVersion;
  private watcher?: NodeJS.Timeout;
  private readonly onHangUp = (): void => void this.reload('SIGHUP');

  constructor(@Inject(configToken('governance')) config: GovernanceConfig) {
    this.source = sourceOf(config, this.logger);
    if (this.source?.file) this.seen = versionOf(this.source.file);
    this.current = this.source ? read(this.source) : AccessPolicy.DEFAULT;
  }

  get policy(): AccessPolicy {
    return this.current;
  }

  /** Changes with every policy that comes into force. */
  get version(): number {
    return this.revision;
  }

  onModuleInit(): void {
    process.on('SIGHUP', this.onHangUp);
    const file = this.source?.file;
    if (!file) return;
    // Compared with the version read at start-up, so a change made since is not missed.
    this.watcher = setInterval(() => {
      if (!sameVersion(versionOf(file), this.seen)) this.reload('file change');
    }, WATCH_INTERVAL_MS);
    this.watcher.unref();
  }

  onModuleDestroy(): void {
    process.off('SIGHUP', this.onHangUp);
    clearInterval(this.watcher);
  }

  /** Re-reads the source; true when a new policy is in force. */
  reload(reason: string): boolean {
    if (!this.source?.file) {
      this.logger.log(`${reason}: the policy is ${this.source ? 'inline' : 'the default'}; nothing to reload`);
      return false;
    }
    this.seen = versionOf(this.source.file);
    try {
      this.current = read(this.source);
      this.revision += 1;
      this.logger.log(`${reason}: access policy reloaded from ${this.source.file}`);
      return true;
    } catch (error) {
      this.logger.error(`${reason}: access policy not reloaded, the previous one stays in force: ${describe(error)}`);
      return false;
    }
  }
}

function sourceOf(config: GovernanceConfig, logger: Logger): PolicySource | undefined {
  const text = config.accessPolicy ?? config.chatToolPolicy;
  if (text === undefined || text.trim() === '') return undefined;
  const variable = config.accessPolicy !== undefined ? 'ACCESS_POLICY' : 'CHAT_TOOL_POLICY';
  if (variable === 'CHAT_TOOL_POLICY') {
    logger.warn(
      'CHAT_TOOL_POLICY is deprecated: it is read as ACCESS_POLICY without "networks"; move it to ACCESS_POLICY',
    );
  } else if (config.chatToolPolicy !== undefined) {
    logger.warn('CHAT_TOOL_POLICY is ignored because ACCESS_POLICY is set');
  }
  return /^\s*[[{]/.test(text) ? { variable, inline: text } : { variable, file: resolveFromRoot(text.trim()) };
}

function read(source: PolicySource): AccessPolicy {
  const options: ParseOptions = {
    source: source.file ? `${source.variable} file ${source.file}` : source.variable,
    withoutNetworks: source.variable === 'CHAT_TOOL_POLICY',
  };
  if (source.inline !== undefined) return AccessPolicy.parse(source.inline, options);
  if (!existsSync(source.file!)) throw new PolicyError(`${options.source} does not exist`);
  return AccessPolicy.parse(readFileSync(source.file!, 'utf8'), options);
}

function describe(error: unknown): string {
  return error instanceof PolicyError ? error.message : error instanceof Error ? error.message : String(error);
}
