import { Matches } from 'class-validator';
import { EnvBool, EnvEnum, EnvInt, EnvString } from './env.decorators';
import { defineNamespace } from './config.loader';

class ServerEnv {
  @EnvString() HOST = '127.0.0.1';
  @EnvInt(0, 65535) PORT = 30779;
  @EnvString()
  @Matches(/^\d+(b|kb|mb)$/i, { message: 'BODY_LIMIT must look like 4mb, 512kb or 1048576b' })
  BODY_LIMIT = '4mb';
  @EnvInt(0, 600000) SHUTDOWN_GRACE_MS = 25000;
  @EnvEnum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL = 'info';
  @EnvBool() LOG_PRETTY = false;
}

export const serverNamespace = defineNamespace('server', ServerEnv, (env) => ({
  host: env.HOST,
  port: env.PORT,
  bodyLimit: env.BODY_LIMIT.toLowerCase(),
  shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
  logLevel: env.LOG_LEVEL,
  logPretty: env.LOG_PRETTY,
}));
export type ServerConfig = ReturnType<typeof serverNamespace.map>;
