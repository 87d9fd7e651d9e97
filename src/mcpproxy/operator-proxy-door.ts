import { Inject, Injectable } from '@nestjs/common';
import { z } from 'zod';
import { operatorToolName } from '../actionrecall/action-bound-tools';
import { requestScope } from '../capabilities/call-scope';
import { CapabilityDefinition, DESTRUCTIVE } from '../capabilities/capability';
import { bindCapability } from '../capabilities/capability-catalog';
import { CapabilityGateway } from '../capabilities/capability-gateway';
import type { AuthenticatedRequest } from '../common/auth/auth.guard';
import { configToken, I18nConfig } from '../config';

/**
 * The private proxy routes of seed 000 (an action's `api_url`) under the same principal policy as every
 * other door (SPEC §12): the operator tool, named `<server>__<tool>`, must be one the caller's account
 * type may call (an operator tool is only ever named on purpose, e.g. `k8s_tools__*`), and each call is
 * one audit line with door `proxy`. The routes' own argument checks and answers are the seed's.
 */
@Injectable()
export class OperatorProxyDoor {
  constructor(
    private readonly gateway: CapabilityGateway,
    @Inject(configToken('i18n')) private readonly i18n: I18nConfig,
  ) {}

  async call<T>(
    server: string,
    tool: string,
    body: unknown,
    request: AuthenticatedRequest,
    readInput: (raw: unknown) => Record<string, unknown>,
    run: (input: Record<string, unknown>) => Promise<T>,
  ): Promise<T> {
    const name = operatorToolName(server, tool);
    const definition: CapabilityDefinition = {
      name,
      title: { 'en-US': name, 'zh-Hans': name },
      description: { 'en-US': `operator tool ${name}`, 'zh-Hans': `运维工具 ${name}` },
      governance: 'act',
      annotations: DESTRUCTIVE,
      network: 'none',
      input: z.looseObject({}),
      output: z.unknown(),
      doors: ['proxy'],
      text: 'json',
      service: OperatorProxyDoor,
      readInput,
      run: (_door, input) => run(input as Record<string, unknown>),
    };
    const scope = requestScope('proxy', request, this.i18n.defaultLanguage);
    return (await this.gateway.call(bindCapability(definition, this, true), body, scope)).value as T;
  }
}
