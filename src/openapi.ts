import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import * as path from 'node:path';
import { jsonSchemaOf } from './capabilities/capability-input';
import { chatRequestSchema } from './chat/chat-request.schema';
import { ErrorBodyDto } from './common/errors/error-body.dto';
import { isPrivatePath, requestListener } from './common/http/listeners';
import { ChatConfig, configToken } from './config';
import { completeDocument } from './openapi/document-completion';
import { projectRoot } from './project-root';

export const DOCS_PATH = 'api/agent-retrieval/docs';

/**
 * Swagger UI at /api/agent-retrieval/docs and the JSON document at /api/agent-retrieval/docs-json. With a
 * private listener of its own (`separateListeners`), each listener documents only the routes it serves.
 */
export function setupOpenApi(app: INestApplication, separateListeners = false): void {
  // Built on the first request for it, not at every start (scanning every route costs ~0.1 s).
  SwaggerModule.setup(DOCS_PATH, app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: `${DOCS_PATH}-json`,
    patchDocumentOnRequest: separateListeners ? documentForListener : undefined,
  });
}

/** The whole document: every route of the application, both prefixes. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Agent Retrieval')
    .setDescription(
      'Governed access for LLM agents to a business knowledge network. Public routes under ' +
        '/api/agent-retrieval/v1 (and the OpenAI-compatible /v1) take a Bearer token: an OAuth2 access token ' +
        'or an API key; private routes under /api/agent-retrieval/in/v1 are for in-cluster callers and take ' +
        'x-account-id / x-account-type headers instead. Every error has the ErrorBody shape (OpenAI error shape on /v1).',
    )
    .setVersion(packageVersion())
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'OAuth2 access token (introspected) or API key ar_…' },
      'bearer',
    )
    .build();
  const document = SwaggerModule.createDocument(app, config, { extraModels: [ErrorBodyDto] });
  const chat = app.get<ChatConfig>(configToken('chat'));
  return completeDocument(document, packageVersion(), jsonSchemaOf(chatRequestSchema(chat.loop), 'input'));
}

function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as { version: string };
  return manifest.version;
}

/** The document as one listener serves it: the private prefix's paths on the private listener, the rest on the public. */
function documentForListener<TRequest>(request: TRequest, _response: unknown, document: OpenAPIObject): OpenAPIObject {
  // The Express adapter hands over Express's request, an IncomingMessage (the option's type is generic).
  const onPrivate = requestListener(request as IncomingMessage) === 'private';
  const paths = Object.fromEntries(
    Object.entries(document.paths).filter(([route]) => isPrivatePath(route) === onPrivate),
  );
  return { ...document, paths };
}
