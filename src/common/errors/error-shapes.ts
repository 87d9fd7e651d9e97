import { Injectable } from '@nestjs/common';
import type { ErrorBody } from './app.exception';
import type { PresentedError } from './error-presenter';

/** An error answer in some protocol's shape: the status, the headers and the body to write. */
export interface ShapedError {
  status: number;
  headers: Record<string, string>;
  body: object;
}

/**
 * Rewrites an error the presenter already classified and translated into one protocol's shape
 * (OpenAI's for the chat door, JSON-RPC's for the MCP endpoint). `error` is what was thrown, for a
 * shape that carries more of it than the body does (OpenAI's `tool_name`, `param`).
 */
export interface ErrorShapeWriter {
  write(presented: PresentedError, error: unknown): ShapedError;
}

/**
 * The error shapes features contribute: a feature registers its writer under the name its controllers
 * declare with `@ErrorShape(name)`, and the exception filter asks here, so `common` knows no feature.
 */
@Injectable()
export class ErrorShapes {
  private readonly writers = new Map<string, ErrorShapeWriter>();

  register(shape: string, writer: ErrorShapeWriter): void {
    if (this.writers.has(shape)) throw new Error(`error shape "${shape}" is registered twice`);
    this.writers.set(shape, writer);
  }

  /** The writer of a declared shape; undefined for the default body (or a shape nobody registered). */
  writerFor(shape: string | undefined): ErrorShapeWriter | undefined {
    return shape === undefined ? undefined : this.writers.get(shape);
  }
}

/** One line for protocols with a single message field: the translated description, then the details text. */
export function errorMessage(body: ErrorBody): string {
  const { description, details } = body;
  return typeof details === 'string' && details !== '' ? `${description}: ${details}` : description;
}
