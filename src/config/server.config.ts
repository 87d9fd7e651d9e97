import { Matches, Validate, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import express from 'express';
import { EnvBool, EnvEnum, EnvInt, EnvString, GreaterThan, Describe } from './env.decorators';
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
  @Describe('Bind address (the Docker image sets `0.0.0.0`)')
  @EnvString()
  HOST = '127.0.0.1';
  @Describe('Listen port (`0` = any free port)')
  @EnvInt(0, 65535)
  PORT = 30779;
  /** The private prefix's own listener (in-cluster callers only); unset = served on PORT. */
  @Describe(
    "The private prefix's own listener ([private listener](security.md#private-listener)); `PORT` then answers `/api/agent-retrieval/in/v1/…` with 404. The Docker image and `k8s/` set `30780`",
    { whenUnset: 'the private prefix shares `PORT`' },
  )
  @EnvInt(0, 65535, { optional: true })
  PRIVATE_PORT?: number;
  @Describe('Bind address of the private listener (only with `PRIVATE_PORT`)', { whenUnset: '`HOST`' })
  @EnvString({ optional: true })
  PRIVATE_HOST?: string;
  /** Serves the header-trusting private prefix on the public port on purpose (see crossCheck). */
  @Describe(
    'Without `PRIVATE_PORT`, `AUTH_MODE=static`/`introspect` on a non-loopback `HOST` does not start unless this is `true`: the private prefix then trusts `x-account-id` on the public port (a warning says so at every start)',
  )
  @EnvBool()
  PRIVATE_ON_PUBLIC_PORT = false;
  @Describe(
    'Largest accepted request body (`413` beyond; a larger `Content-Length` is refused before any body is read)',
  )
  @EnvString()
  @Matches(/^\d+(b|kb|mb)$/i, { message: 'BODY_LIMIT must look like 4mb, 512kb or 1048576b' })
  BODY_LIMIT = '4mb';
  @Describe("Longest a client may take to send a request's headers; then `408` and the connection is closed")
  @EnvInt(1000, 600000)
  HEADERS_TIMEOUT_MS = 10000;
  // Node refuses a headers deadline longer than the whole-request one; range errors are reported first.
  @Describe(
    "Longest a client may take to send a whole request, body included (`408` and close; the handler's own time is not counted); must exceed `HEADERS_TIMEOUT_MS`",
  )
  @GreaterThan('HEADERS_TIMEOUT_MS')
  @EnvInt(1000, 3600000)
  REQUEST_TIMEOUT_MS = 30000;
  @Describe('On SIGTERM, how long in-flight requests may take before connections are closed')
  @EnvInt(0, 600000)
  SHUTDOWN_GRACE_MS = 25000;
  @Describe('Least severe log level written; `silent` writes none')
  @EnvEnum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';
  @Describe('Human-readable logs instead of JSON lines')
  @EnvBool()
  LOG_PRETTY = false;
  @Describe(
    'Which proxies may set `X-Forwarded-For`/`-Proto`: `false`, `true`, a hop count, or addresses/subnets (`loopback`, `10.0.0.0/8`, …); see [Authentication](security.md)',
  )
  @EnvString()
  @Validate(TrustProxyConstraint)
  TRUST_PROXY = 'false';
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
