import { Module } from '@nestjs/common';
import { ActionRecallModule } from '../actionrecall/actionrecall.module';
import { capabilityBundle } from '../capabilities/capability-catalog';
import { configToken, ChatConfig } from '../config';
import { upstreamMetrics } from '../metrics/upstream-metrics';
import { MetricsService } from '../metrics/metrics.service';
import { ChatController } from './chat.controller';
import { ChatService } from './chat.service';
import { LlmPort } from './chat.types';
import { OpenAiErrorShape } from './openai-error-shape';
import { OpenAiCompatibleLlm } from './llm/openai-llm';
import { OperatorTools } from './tools/operator-tools';
import { ToolRegistry } from './tools/tool-registry';
import { WORKSPACE_CAPABILITIES } from './workspace/workspace.capabilities';
import { Workspaces } from './workspace/workspaces';

/** Chat completions with server-side tools (SPEC §10, seed 004), the tool API, and the session workspace capabilities. */
@Module({
  imports: [ActionRecallModule],
  controllers: [ChatController],
  providers: [
    {
      provide: LlmPort,
      inject: [configToken('chat'), MetricsService],
      useFactory: (config: ChatConfig, metrics: MetricsService) => {
        const observe = upstreamMetrics(metrics);
        return new OpenAiCompatibleLlm(config.llm, (outcome, seconds) => observe('llm', outcome, seconds));
      },
    },
    {
      provide: Workspaces,
      inject: [configToken('chat')],
      useFactory: ({ workspace }: ChatConfig) => new Workspaces(workspace),
    },
    OpenAiErrorShape,
    OperatorTools,
    ToolRegistry,
    capabilityBundle('workspace', WORKSPACE_CAPABILITIES),
    ChatService,
  ],
})
export class ChatModule {}
