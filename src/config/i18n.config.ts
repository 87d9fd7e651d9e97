import { EnvEnum, Describe } from './env.decorators';
import { defineNamespace } from './config.loader';

export const LANGUAGES = ['zh-Hans', 'en-US'] as const;
export type Language = (typeof LANGUAGES)[number];

class I18nEnv {
  /** The one fallback when a request names no language; zh-Hans only when set (issue 31). */
  @Describe('Error language when the request names none (`zh-Hans` or `en-US`); set `zh-Hans` for Chinese by default')
  @EnvEnum(LANGUAGES)
  DEFAULT_LANGUAGE: Language = 'en-US';
}

export const i18nNamespace = defineNamespace('i18n', I18nEnv, (env) => ({
  defaultLanguage: env.DEFAULT_LANGUAGE,
}));
export type I18nConfig = ReturnType<typeof i18nNamespace.map>;
