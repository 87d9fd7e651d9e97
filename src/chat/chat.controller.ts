import { Body, Controller, Get, HttpCode, Logger, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthenticatedRequest } from '../common/auth/auth.guard';
import { ErrorShape } from '../common/errors/error-shape';
import { Access } from '../common/http/route-access';
import { ChatEventStream } from './chat-event-stream';
import { ChatRequest } from './chat-request';
import { LoopEvent, LoopResult } from './chat-loop';
import { ChatService, ToolExecution } from './chat.service';
import { OPENAI_ERROR_SHAPE, OpenAiErrorShape } from './openai-error-shape';

/**
 * The OpenAI-compatible door (seed 004, SPEC §10): `/api/chat/completions` (the seed's path) and
 * `/v1/chat/completions`, `/v1/models`, `/v1/tools`, `/v1/tools/{name}/call`. Public routes: a valid
 * Bearer token, rate-limited per account; errors in the OpenAI shape (OpenAiErrorShape).
 */
@Controller()
@Access('public')
@ErrorShape(OPENAI_ERROR_SHAPE)
@ApiExcludeController()
export class ChatController {
  private readonly logger = new Logger('Chat');

  constructor(
    private readonly chat: ChatService,
    private readonly errors: OpenAiErrorShape,
  ) {}

  @Post(['api/chat/completions', 'v1/chat/completions'])
  @HttpCode(200)
  async completions(
    @Body() body: unknown,
    @Req() request: AuthenticatedRequest,
    @Res() response: Response,
  ): Promise<void> {
    const parsed = this.chat.parse(body);
    const abort = new AbortController();
    // The client going away aborts the model call and stops tools that have not started.
    const onClose = (): void => {
      if (!response.writableFinished) abort.abort();
    };
    response.on('close', onClose);
    try {
      if (!parsed.stream) {
        const turn = await this.chat.complete(parsed, request, { signal: abort.signal });
        response.status(200).json(completion(turn.result, turn.execution));
        return;
      }
      await this.stream(parsed, request, response, abort);
    } finally {
      response.off('close', onClose);
    }
  }

  @Get('v1/models')
  models(): ReturnType<ChatService['models']> {
    return this.chat.models();
  }

  @Get('v1/tools')
  async tools(@Req() request: AuthenticatedRequest, @Query('session_id') sessionId?: string): Promise<unknown> {
    return { object: 'list', data: await this.chat.serverTools(request, sessionId) };
  }

  @Post('v1/tools/:name/call')
  @HttpCode(200)
  callTool(@Param('name') name: string, @Body() body: unknown, @Req() request: AuthenticatedRequest): Promise<unknown> {
    return this.chat.callTool(name, body, request);
  }

  /**
   * Server-sent events: OpenAI `chat.completion.chunk` frames, the text once per frame; tool activity
   * (`tool_call`, `tool_result`) rides in frames of its own with `choices: []` so OpenAI clients skip it;
   * the last chunk carries `finish_reason`, `usage` and `tool_execution`; `data: [DONE]` last. A client
   * that asks for the seed's event fields (`X-Chat-Events: seed` or `stream_options.include_tool_events`)
   * gets `type` on every frame and the text again in a top-level `delta`. Frames are written as the model
   * sends them, and the model is read no faster than the client reads.
   */
  private async stream(
    parsed: ChatRequest,
    request: AuthenticatedRequest,
    response: Response,
    abort: AbortController,
  ): Promise<void> {
    const started = process.hrtime.bigint();
    const seed = parsed.includeToolEvents === true || String(request.headers['x-chat-events']).toLowerCase() === 'seed';
    const stream = new ChatEventStream(response, {
      fields: seed ? 'seed' : 'openai',
      idleMs: this.chat.clientIdleMs,
      onIdle: () => {
        this.logger.warn(`chat client read nothing for ${this.chat.clientIdleMs} ms; the stream was cut off`);
        abort.abort();
        response.destroy();
      },
    });
    let first = true;
    const emit = (event: LoopEvent): void => {
      if (abort.signal.aborted) return;
      if (event.type === 'start') {
        stream.identify(event);
      } else if (event.type === 'content') {
        if (first) {
          first = false;
          this.chat.firstByte.observe(Number(process.hrtime.bigint() - started) / 1e9);
        }
        stream.content(event.delta);
      } else if (event.type === 'tool_call') {
        stream.chunk({ choices: [], type: 'tool_call', delta: { tool_calls: event.delta } });
      } else if (event.type === 'tool_result') {
        stream.chunk({
          choices: [],
          type: 'tool_result',
          tool_call_id: event.tool_call_id,
          name: event.name,
          result: { success: event.result.success, content: event.result.content },
        });
      } else {
        const delta = {
          content: null,
          tool_calls: event.tool_calls.map((call, index) => ({ index, ...call })),
        };
        stream.chunk(stream.choiceFrame(delta, null, stream.seedFields ? { type: 'tool_call', delta } : {}));
      }
    };
    try {
      const turn = await this.chat.complete(parsed, request, {
        signal: abort.signal,
        emit,
        ready: () => stream.ready(),
      });
      stream.identify(turn.result);
      const finishReason = turn.result.finishReason;
      stream.finish(
        stream.chunkOf(
          stream.choiceFrame({}, finishReason, {
            type: 'done',
            finish_reason: finishReason,
            usage: turn.result.usage,
            tool_execution: turn.execution,
          }),
        ),
      );
    } catch (error) {
      if (abort.signal.aborted) return stream.abandon();
      if (!stream.started) throw error;
      // The status is decided: the error travels as a last frame in the OpenAI error shape.
      stream.finish(this.errors.present(error, request).body);
    }
  }
}

function completion(result: LoopResult, execution: ToolExecution): Record<string, unknown> {
  return {
    id: result.id,
    object: 'chat.completion',
    created: result.created,
    model: result.model,
    choices: [{ index: 0, message: result.message, finish_reason: result.finishReason }],
    usage: result.usage,
    tool_execution: execution,
  };
}
