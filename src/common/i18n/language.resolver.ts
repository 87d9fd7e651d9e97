import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { I18nResolver } from 'nestjs-i18n';
import { configToken, I18nConfig } from '../../config';
import { languageFromHeaders } from './language';

/** nestjs-i18n resolver that understands every spelling of our two locales. */
@Injectable()
export class LanguageResolver implements I18nResolver {
  constructor(@Inject(configToken('i18n')) private readonly config: I18nConfig) {}

  resolve(context: ExecutionContext): string | undefined {
    if (context.getType() !== 'http') return undefined;
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string> }>();
    return languageFromHeaders(request.headers ?? {}, this.config.defaultLanguage);
  }
}
