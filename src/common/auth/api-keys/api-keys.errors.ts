import { specificError } from '../../errors/error-codes';

/** API key management and storage errors; none of them ever quotes a key or its secret. */
export const ApiKeyErrors = {
  NotFound: specificError('NotFound', 'ApiKeyNotFound', 404),
  StoreUnavailable: specificError('ServiceUnavailable', 'ApiKeyStoreUnavailable', 503),
} as const;
