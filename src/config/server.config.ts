import { Matches, Validate, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import express from 'express';
import { EnvBool, EnvEnum, EnvInt, EnvString, GreaterThan } from './env.decorators';
import { defineNamespace } from './config.loader';

/** What Express's `trust proxy` setting takes: off, on, a hop count, or addresses / subnets / names. */
export type TrustProxy = boolean | number | string;

export function parseTrustProxy(value: string): TrustProxy {
  const text = value.trim().toLowerCase();
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) return Number(text);
  return value.trim();
}

/** Validated by Express itself, so what boots is exactly what Express will apply. */
@ValidatorConstraint({ name: 'trustProxy' })
class TrustProxyConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    if (typeof value !== 'string') return false;
    try {
      express().set('trust proxy', parseTrustProxy(value));
      return true;
    } catch {
      return false;
    }
  }

  defaultMessage(): string {
    return 'TRUST_PROXY must be false, true, a hop count, or a comma-separated list of addresses, subnets, loopback, linklocal or uniquelocal';
  }
}

class ServerEnv {
  @EnvString() HOST = '127.0.0.1';
  @EnvInt(0, 65535) PORT = 30779;
  /** The private prefix's own listener (in-cluster callers only); unset = served on PORT. */
  @EnvInt(0, 65535, { optional: true }) PRIVATE_PORT?: number;
  @EnvString({ optional: true }) PRIVATE_HOST?: string;
  /** Serves the header-trusting private prefix on the public port on purpose (see crossCheck). */
  @EnvBool() PRIVATE_ON_PUBLIC_PORT = false;
  @EnvString()
  @Matches(/^\d+(b|kb|mb)$/i, { message: 'BODY_LIMIT must look like 4mb, 512kb or 1048576b' })
  BODY_LIMIT = '4mb';
  @EnvInt(1000, 600000) HEADERS_TIMEOUT_MS = 10000;
  // Node refuses a headers deadline longer than the whole-request one; range errors are reported first.
  @GreaterThan('HEADERS_TIMEOUT_MS') @EnvInt(1000, 3600000) REQUEST_TIMEOUT_MS = 30000;
  @EnvInt(0, 600000) SHUTDOWN_GRACE_MS = 25000;
  @EnvEnum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL = 'info';
  @EnvBool() LOG_PRETTY = false;
  @EnvString() @Validate(TrustProxyConstraint) TRUST_PROXY = 'false';
}

// The same units as the `bytes` package that body-parser reads BODY_LIMIT with (1kb = 1024 bytes).
const BYTE_UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 * 1024 };

/** `4mb` → 4194304; BODY_LIMIT's pattern has already been validated. */
function parseByteSize(limit: string): number {
  const match = /^(\d+)(b|kb|mb)$/.exec(limit);
  if (!match) throw new Error(`BODY_LIMIT ${limit} is not a byte size`);
  return Number(match[1]) * BYTE_UNITS[match[2]];
}

export const serverNamespace = defineNamespace('server', ServerEnv, (env) => ({
  host: env.HOST,
  port: env.PORT,
  /** Where the private prefix listens when it has a listener of its own; its host defaults to HOST. */
  privateListener:
    env.PRIVATE_PORT === undefined ? undefined : { port: env.PRIVATE_PORT, host: env.PRIVATE_HOST ?? env.HOST },
  privateOnPublicPort: env.PRIVATE_ON_PUBLIC_PORT,
  privateHostSet: env.PRIVATE_HOST !== undefined,
  bodyLimit: env.BODY_LIMIT.toLowerCase(),
  bodyLimitBytes: parseByteSize(env.BODY_LIMIT.toLowerCase()),
  headersTimeoutMs: env.HEADERS_TIMEOUT_MS,
  requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
  shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
  logLevel: env.LOG_LEVEL,
  logPretty: env.LOG_PRETTY,
  trustProxy: parseTrustProxy(env.TRUST_PROXY),
}));
export type ServerConfig = ReturnType<typeof serverNamespace.map>;
