import { DynamicModule, Global, Module } from '@nestjs/common';
import { ConfigModule, registerAs } from '@nestjs/config';
import { AppConfig, configToken, NAMESPACES } from './index';

/** Makes the validated configuration injectable, one provider per namespace. */
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
      providers: [...names.map((name) => ({ provide: configToken(name), useValue: config[name] }))],
      exports: [...names.map((name) => configToken(name))],
    };
  }
}
