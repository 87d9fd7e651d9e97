import { AppException } from '../errors/app.exception';
import { ErrorDefinition } from '../errors/error-codes';
import { LocalizedDetails } from '../errors/localized-details';

/**
 * Messages between the request thread and a worker thread. Values cross by structured clone, so
 * classes (AppException, LocalizedDetails) travel as plain data and are rebuilt on arrival.
 */
export interface TaskMessage {
  id: number;
  service: string;
  method: string;
  args: unknown[];
}

/** A task's answer; `ms`: the time the worker spent on it (not the time it waited to start). */
export type ReplyMessage =
  | { kind: 'result'; id: number; value: unknown; threadId: number; ms: number }
  | { kind: 'error'; id: number; error: SerializedError; threadId: number; ms: number }
  | { kind: 'log'; level: 'log' | 'warn' | 'error' | 'debug' | 'verbose'; context?: string; message: string };

/** What a worker knows at start: its services (name → compiled module exporting `createWorkerService`). */
export interface WorkerBoot {
  services: Record<string, string>;
}

export interface SerializedError {
  message: string;
  app?: {
    definition: ErrorDefinition;
    details?: unknown;
    /** LocalizedDetails as plain data (a class does not survive the structured clone). */
    localized?: { key: string; args: Record<string, string | number> };
    headers: Record<string, string>;
  };
}

export function serializeError(error: unknown): SerializedError {
  if (error instanceof AppException) {
    const localized = error.details instanceof LocalizedDetails ? error.details : undefined;
    return {
      message: error.message,
      app: {
        definition: { ...error.definition },
        details: localized ? undefined : error.details,
        localized: localized ? { key: localized.key, args: { ...localized.args } } : undefined,
        headers: error.headers,
      },
    };
  }
  return { message: error instanceof Error ? error.message : String(error) };
}

/** The error as the request thread's error handling knows it: an AppException, or a plain Error (a 500). */
export function reviveError(serialized: SerializedError): Error {
  const app = serialized.app;
  if (!app) return new Error(serialized.message);
  const details = app.localized ? new LocalizedDetails(app.localized.key, app.localized.args) : app.details;
  return new AppException(app.definition, details, { headers: app.headers });
}
