import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthenticatedRequest } from '../common/auth/auth.guard';
import { Access } from '../common/http/route-access';
import { chatErrorBody } from './chat-error-body';
import { LoopEvent, LoopResult } from './chat-loop';
import { ChatService, ToolExecution } from './chat.service';
import { ErrorPresenter } from '../common/errors/error-presenter';

/**
 * The OpenAI-compatible door (seed 004, SPEC §10): `/api/chat/completions` (the seed's path) and
 * `/v1/chat/completions`, `/v1/models`, `/v1/tools`, `/v1/tools/{name}/call`. Public routes: a valid
 * Bearer token, rate-limited per account; errors in the OpenAI shape (see the global exception filter).
 */
@Controller()
@Access('public')
@ApiExcludeController()
export class ChatController {
  constructor(
    private readonly chat: ChatService,
    private readonly presenter: ErrorPresenter,
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
        const turn = await this.chat.complete(body, request, abort.signal);
        response.status(200).json(completion(turn.result, turn.execution));
        return;
      }
      await this.stream(body, request, response, abort);
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
   * Server-sent events: every frame a valid `chat.completion.chunk` carrying the seed's `type`
   * (`content`, `tool_call`, `tool_result`, `done`); tool activity rides in frames with `choices: []`
   * so OpenAI clients skip it; `data: [DONE]` last. Frames are written as the model sends them.
   */
  private async stream(
    body: unknown,
    request: AuthenticatedRequest,
    response: Response,
    abort: AbortController,
  ): Promise<void> {
    const started = process.hrtime.bigint();
    const base = { id: '', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: '' };
    let opened = false;
    const open = (): void => {
      if (opened) return;
      opened = true;
      response.status(200);
      response.setHeader('content-type', 'text/event-stream; charset=utf-8');
      response.setHeader('cache-control', 'no-cache');
      response.setHeader('x-accel-buffering', 'no');
    };
    // Frames leave once per event-loop turn: everything one read of the model's answer produced (its
    // end too, when it came in the same read) goes out in one socket write, the headers with the first.
    let pending = '';
    let scheduled: NodeJS.Immediate | undefined;
    const flush = (): void => {
      scheduled = undefined;
      const text = pending;
      pending = '';
      if (text !== '' && !response.writableEnded) response.write(text);
    };
    const write = (frame: unknown): void => {
      open();
      pending += sseFrame(frame);
      scheduled ??= setImmediate(flush);
    };
    /** The last frame, `[DONE]` and the end of the response, with whatever is still pending, in one write. */
    const finish = (frame: unknown): void => {
      clearImmediate(scheduled);
      scheduled = undefined;
      open();
      const text = `${pending}${sseFrame(frame)}data: [DONE]\n\n`;
      pending = '';
      response.end(text);
    };
    let first = true;
    const emit = (event: LoopEvent): void => {
      if (abort.signal.aborted) return;
      if (event.type === 'content') {
        if (first) {
          first = false;
          this.chat.firstByte.observe(Number(process.hrtime.bigint() - started) / 1e9);
        }
        const delta = { content: event.delta };
        write({ ...base, choices: [{ index: 0, delta, finish_reason: null }], type: 'content', delta });
      } else if (event.type === 'tool_call') {
        write({ ...base, choices: [], type: 'tool_call', delta: { tool_calls: event.delta } });
      } else if (event.type === 'tool_result') {
        write({
          ...base,
          choices: [],
          type: 'tool_result',
          tool_call_id: event.tool_call_id,
          name: event.name,
          result: { success: event.result.success, content: event.result.content },
        });
      } else {
        const delta = {
          role: 'assistant',
          content: null,
          tool_calls: event.tool_calls.map((call, index) => ({ index, ...call })),
        };
        write({ ...base, choices: [{ index: 0, delta, finish_reason: null }], type: 'tool_call', delta });
      }
    };
    try {
      const turn = await this.chat.complete(body, request, abort.signal, emit);
      base.id = turn.result.id;
      base.model = turn.result.model;
      finish({
        ...base,
        choices: [{ index: 0, delta: {}, finish_reason: turn.result.finishReason }],
        type: 'done',
        finish_reason: turn.result.finishReason,
        usage: turn.result.usage,
        tool_execution: turn.execution,
      });
    } catch (error) {
      if (abort.signal.aborted) {
        clearImmediate(scheduled);
        response.end();
        return;
      }
      if (!opened) throw error;
      // The status is decided: the error travels as a last frame in the OpenAI error shape.
      finish(chatErrorBody(error, this.presenter, request).body);
    }
  }
}

function sseFrame(frame: unknown): string {
  return `data: ${JSON.stringify(frame)}\n\n`;
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
