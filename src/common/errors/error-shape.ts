import { ExecutionContext, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';

const ERROR_SHAPE = 'agentRetrieval:errorShape';
const DECLARED_SHAPE = Symbol('agentRetrieval.errorShape');

type ShapedRequest = object & { [DECLARED_SHAPE]?: string };

/**
 * Declares the shape a controller's errors are answered in (a name some feature registered with
 * `ErrorShapes`, e.g. `openai`); without it, the documented `{code, description, solution, link, details}`.
 */
export const ErrorShape = (shape: string): ClassDecorator => SetMetadata(ERROR_SHAPE, shape);

/**
 * Remembers on the request the shape its matched controller declares, for the exception filter, whose
 * ArgumentsHost does not name the route. Called by the first guard: one metadata read, and a property
 * written only on the few controllers that declare a shape.
 */
export function recordErrorShape(reflector: Reflector, context: ExecutionContext, request: object): void {
  const shape = reflector.get<string | undefined>(ERROR_SHAPE, context.getClass());
  if (shape !== undefined) (request as ShapedRequest)[DECLARED_SHAPE] = shape;
}

/** The shape the matched controller declared; undefined before routing, on an unmatched route, or by default. */
export function declaredErrorShape(request: object): string | undefined {
  return (request as ShapedRequest)[DECLARED_SHAPE];
}
