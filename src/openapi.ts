import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { IncomingMessage } from 'node:http';
import { ErrorBodyDto } from './common/errors/error-body.dto';
import { isPrivatePath, requestListener } from './common/http/listeners';

export const DOCS_PATH = 'api/agent-retrieval/docs';

/**
 * Swagger UI at /api/agent-retrieval/docs and the JSON document at /api/agent-retrieval/docs-json. With a
 * private listener of its own (`separateListeners`), each listener documents only the routes it serves.
 */
export function setupOpenApi(app: INestApplication, separateListeners = false): void {
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
  SwaggerModule.setup(DOCS_PATH, app, document, {
    jsonDocumentUrl: `${DOCS_PATH}-json`,
    patchDocumentOnRequest: separateListeners ? documentForListener : undefined,
  });
}

/** The document as one listener serves it: the private prefix's paths on the private listener, the rest on the public. */
function documentForListener<TRequest>(request: TRequest, _response: unknown, document: OpenAPIObject): OpenAPIObject {
  // The Express adapter hands over Express's request, an IncomingMessage (the option's type is generic).
  const onPrivate = requestListener(request as IncomingMessage) === 'private';
  const paths = Object.fromEntries(
    Object.entries(document.paths).filter(([path]) => isPrivatePath(path) === onPrivate),
  );
  return { ...document, paths };
}
