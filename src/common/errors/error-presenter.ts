import { HttpException, Inject, Injectable, Logger } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import { I18nService } from 'nestjs-i18n';
import { configToken, I18nConfig } from '../../config';
import { Language } from '../../config/i18n.config';
import { AppException, ErrorBody, PassThroughException } from './app.exception';
import { ErrorDefinition, PublicErrors, publicErrorForStatus, ValidationErrors } from './error-codes';
import { currentTraceId } from '../../tracing/trace-ids';
import { LocalizedDetails } from './localized-details';

export interface PresentedError {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  /** The language the whole body is written in (sent as Content-Language). */
  language?: Language;
}

interface BodyParserError {
  type?: string;
  status?: number;
  expose?: boolean;
}

// Details often quote the caller's input (an unknown id, a list of names); an answer never grows with it.
const MAX_DETAILS_LENGTH = 1000;

/** What support needs to find an unexplained failure: the request id, and the trace id while tracing is on. */
function supportReference(requestId?: string): Record<string, string> | undefined {
  const reference: Record<string, string> = {};
  if (requestId) reference.request_id = requestId;
  const traceId = currentTraceId();
  if (traceId) reference.trace_id = traceId;
  return Object.keys(reference).length > 0 ? reference : undefined;
}

/**
 * Details other than LocalizedDetails are written in English where they are raised (a sentence, or data
 * holding one); rather than mix languages, their body is English. None, or translated ones, follow the caller.
 */
function languageOfBody(details: unknown, language: Language): Language {
  return details === undefined || details instanceof LocalizedDetails ? language : 'en-US';
}

function boundedText(text: string): string {
  return text.length > MAX_DETAILS_LENGTH ? `${text.slice(0, MAX_DETAILS_LENGTH).toWellFormed()}…` : text;
}

/**
 * Turns anything thrown into the documented error body, translated into the caller's language.
 * Shared by the HTTP exception filter and the MCP tools so both doors say the same thing.
 */
@Injectable()
export class ErrorPresenter {
  private readonly logger = new Logger('Errors');

  constructor(
    private readonly i18n: I18nService,
    @Inject(configToken('i18n')) private readonly config: I18nConfig,
  ) {}

  present(error: unknown, language: Language = this.config.defaultLanguage, requestId?: string): PresentedError {
    if (error instanceof PassThroughException) {
      return { status: error.status, body: error.body, headers: {} };
    }
    const { definition, details, headers, neutral } = this.classify(error, requestId);
    const bodyLanguage = neutral ? language : languageOfBody(details, language);
    const body = this.translatedBody(definition, details, bodyLanguage);
    return { status: definition.status, body, headers, language: bodyLanguage };
  }

  /**
   * The error body in one language (issue 31): `language` when the details can be said in it, English
   * throughout when they are text that exists only in English.
   */
  body(definition: ErrorDefinition, details: unknown, language: Language): ErrorBody {
    return this.translatedBody(definition, details, languageOfBody(details, language));
  }

  private translatedBody(definition: ErrorDefinition, details: unknown, language: Language): ErrorBody {
    const translate = (field: string, fallbackKey: string): string => {
      const own = this.i18n.translate(`errors.${definition.key}.${field}`, { lang: language });
      if (typeof own === 'string' && own !== `errors.${definition.key}.${field}`) return own;
      return String(this.i18n.translate(`errors.${fallbackKey}.${field}`, { lang: language }));
    };
    const body: ErrorBody = {
      code: definition.code,
      description: translate('description', definition.status >= 500 ? 'InternalServerError' : 'BadRequest'),
      solution: translate('solution', 'Common'),
      link: translate('link', 'Common'),
    };
    if (details instanceof LocalizedDetails) {
      body.details = this.translated(details, language);
    } else if (details !== undefined) {
      body.details = typeof details === 'string' ? boundedText(details) : details;
    }
    return body;
  }

  /**
   * What an AppException says beyond its code, in `language`: its LocalizedDetails translated, else its
   * message (text details). For a caller that words its own answer, such as a tool result for a model.
   */
  detailsText(error: AppException, language: Language = this.config.defaultLanguage): string {
    return error.details instanceof LocalizedDetails ? this.translated(error.details, language) : error.message;
  }

  private translated(details: LocalizedDetails, language: Language): string {
    return String(this.i18n.translate(details.key, { lang: language, args: details.args }));
  }

  private classify(
    error: unknown,
    requestId?: string,
  ): { definition: ErrorDefinition; details?: unknown; headers: Record<string, string>; neutral?: boolean } {
    if (error instanceof AppException) {
      if (error.status >= 500) this.logFailure(error, requestId);
      return { definition: error.definition, details: error.details, headers: error.headers };
    }
    if (error instanceof ThrottlerException) {
      return { definition: PublicErrors.TooManyRequests, details: 'too many requests, retry later', headers: {} };
    }
    if (error instanceof HttpException) {
      const status = error.getStatus();
      if (status >= 500) this.logFailure(error, requestId);
      return {
        definition: publicErrorForStatus(status),
        details: status >= 500 ? undefined : error.message,
        headers: {},
      };
    }
    const parserError = error as BodyParserError;
    if (parserError?.type === 'entity.too.large') {
      return {
        definition: PublicErrors.PayloadTooLarge,
        details: 'request body exceeds the configured limit',
        headers: {},
      };
    }
    if (parserError?.type === 'entity.parse.failed') {
      return { definition: ValidationErrors.InvalidJson, details: 'request body is not valid JSON', headers: {} };
    }
    if (parserError?.expose && typeof parserError.status === 'number' && parserError.status < 500) {
      return { definition: publicErrorForStatus(parserError.status), details: (error as Error).message, headers: {} };
    }
    this.logFailure(error, requestId);
    // Ids only: they read the same in every language.
    return {
      definition: PublicErrors.InternalServerError,
      details: supportReference(requestId),
      headers: {},
      neutral: true,
    };
  }

  private logFailure(error: unknown, requestId?: string): void {
    const cause = error instanceof Error ? (error.cause ?? error) : error;
    this.logger.error({ err: cause, requestId }, 'request failed');
  }
}
