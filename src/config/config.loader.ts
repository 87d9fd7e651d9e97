import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';

/** One typed configuration area, read from environment variables and validated once at boot. */
export interface ConfigNamespace<TEnv extends object, TConfig> {
  readonly name: string;
  readonly env: new () => TEnv;
  map(env: TEnv): TConfig;
}

export function defineNamespace<TEnv extends object, TConfig>(
  name: string,
  env: new () => TEnv,
  map: (env: TEnv) => TConfig,
): ConfigNamespace<TEnv, TConfig> {
  return { name, env, map };
}

/** Thrown when the environment is invalid; each line names one variable and what is wrong. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i;

/** The rejected value as an error may show it: never a secret variable's value, never a URL's credentials. */
function shown(name: string, raw: string): string {
  if (SECRET_NAME.test(name)) return '(value hidden)';
  const credentials = /^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/i.exec(raw);
  return `"${credentials ? `${credentials[1]}***@${raw.slice(credentials[0].length)}` : raw}"`;
}

function describe(error: ValidationError, env: Record<string, string | undefined>): string {
  const message = Object.values(error.constraints ?? {})[0] ?? 'is invalid';
  const raw = env[error.property];
  return `Invalid configuration: ${message}${raw === undefined ? '' : ` (got ${shown(error.property, raw)})`}`;
}

export function loadNamespace<TEnv extends object, TConfig>(
  namespace: ConfigNamespace<TEnv, TConfig>,
  env: Record<string, string | undefined>,
): TConfig {
  const instance = plainToInstance(namespace.env, env, {
    excludeExtraneousValues: true,
    exposeDefaultValues: true,
  });
  // A variable that is absent keeps the class default; transforms turn '' into undefined, so restore it.
  const defaults = new namespace.env() as Record<string, unknown>;
  for (const [key, value] of Object.entries(instance)) {
    if (value === undefined && defaults[key] !== undefined) {
      (instance as Record<string, unknown>)[key] = defaults[key];
    }
  }
  const errors = validateSync(instance, { forbidUnknownValues: false });
  if (errors.length > 0) throw new ConfigError(errors.map((error) => describe(error, env)));
  return namespace.map(instance);
}
