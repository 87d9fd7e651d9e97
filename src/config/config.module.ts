import { DynamicModule, Global, Module } from '@nestjs/common';
import { ConfigModule, registerAs } from '@nestjs/config';
import { AppConfig, configToken, NAMESPACES } from './index';

export const APP_CONFIG = Symbol('APP_CONFIG');

/** Makes the validated configuration injectable, per namespace and whole. */
@Global()
@Module({})
export class AppConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    const names = Object.keys(NAMESPACES) as (keyof AppConfig)[];
    return {
      module: AppConfigModule,
      imports: [
        ConfigModule.forRoot({
          ignoreEnvFile: true,
          isGlobal: true,
          load: names.map((name) => registerAs(name, () => config[name])),
        }),
      ],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        ...names.map((name) => ({ provide: configToken(name), useValue: config[name] })),
      ],
      exports: [APP_CONFIG, ...names.map((name) => configToken(name))],
    };
  }
}
