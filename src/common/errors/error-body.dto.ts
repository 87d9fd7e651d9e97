import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiResponse, getSchemaPath } from '@nestjs/swagger';

/** OpenAPI description of the error body every route returns on failure. */
export class ErrorBodyDto {
  @ApiProperty({ example: 'agentRetrieval.BadRequest.ValidationRequired' })
  code: string;

  @ApiProperty({ example: 'Required information cannot be empty' })
  description: string;

  @ApiProperty({ example: 'Fill in the required fields and retry' })
  solution: string;

  @ApiProperty({ example: 'None' })
  link: string;

  @ApiProperty({
    required: false,
    description: 'Free-form detail: a string or an object',
    example: 'Parameter limit must be less than or equal to 10000',
  })
  details?: unknown;
}

/** Documents the standard error responses on a controller or route. */
export function ApiErrorResponses(...statuses: number[]): MethodDecorator & ClassDecorator {
  const codes = statuses.length > 0 ? statuses : [400, 401, 404, 429, 500, 502, 503];
  return applyDecorators(
    ApiExtraModels(ErrorBodyDto),
    ...codes.map((status) =>
      ApiResponse({ status, description: 'Error body', schema: { $ref: getSchemaPath(ErrorBodyDto) } }),
    ),
  );
}
