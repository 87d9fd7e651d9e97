import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { ErrorBodyDto } from './common/errors/error-body.dto';

export const DOCS_PATH = 'api/agent-retrieval/docs';

/** Swagger UI at /api/agent-retrieval/docs and the JSON document at /api/agent-retrieval/docs-json. */
export function setupOpenApi(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Agent Retrieval')
    .setDescription(
      'Governed access for LLM agents to a business knowledge network. Public routes under ' +
        '/api/agent-retrieval/v1 take a Bearer token; private routes under /api/agent-retrieval/in/v1 ' +
        'take x-account-id / x-account-type headers. Every error has the ErrorBody shape.',
    )
    .setVersion('1.0.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'OAuth2 access token (introspected)' })
    .build();
  const document = SwaggerModule.createDocument(app, config, { extraModels: [ErrorBodyDto] });
  SwaggerModule.setup(DOCS_PATH, app, document, { jsonDocumentUrl: `${DOCS_PATH}-json` });
}
