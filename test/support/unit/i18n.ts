import { Test } from '@nestjs/testing';
import * as path from 'node:path';
import { I18nModule, I18nService } from 'nestjs-i18n';
import { ErrorPresenter } from '../../../src/common/errors/error-presenter';
import { projectRoot } from '../../../src/project-root';
import { testConfig } from './config';

let shared: Promise<I18nService> | undefined;

/** nestjs-i18n with the service's own locale files, as the app loads them (once per spec file). */
export function localeFiles(): Promise<I18nService> {
  shared ??= Test.createTestingModule({
    imports: [
      I18nModule.forRoot({
        fallbackLanguage: 'zh-Hans',
        loaderOptions: { path: path.join(projectRoot(), 'i18n'), watch: false },
        resolvers: [],
        disableMiddleware: true,
        skipAsyncHook: true,
        logging: false,
      }),
    ],
  })
    .compile()
    .then((module) => module.get(I18nService));
  return shared;
}

/** The error presenter with the real translations, answering in the default language (zh-Hans) unless asked. */
export async function realErrorPresenter(): Promise<ErrorPresenter> {
  return new ErrorPresenter(await localeFiles(), testConfig().i18n);
}
