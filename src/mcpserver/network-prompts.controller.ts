import { Inject } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { McpContext, McpController, Prompt } from '@rekog/mcp-nest';
import type { Request } from 'express';
import { z } from 'zod';
import { languageFromHeaders } from '../common/i18n/language';
import { configToken, I18nConfig } from '../config';
import { Language } from '../config/i18n.config';
import { connectionKnId } from './network-resources.controller';

interface PromptResult {
  description: string;
  messages: { role: 'user'; content: { type: 'text'; text: string } }[];
}

type Texts = Record<'zh' | 'en', string>;

const KN_ID = z.string().optional().describe('Knowledge network id (default: the connection X-Kn-ID)');

/**
 * Prompts that teach the tool chain (issue 14), in the caller's language (X-Language / Accept-Language):
 * explore a network, answer a question from it with citations, and act on an instance safely.
 */
@McpController()
export class NetworkPrompts {
  constructor(@Inject(configToken('i18n')) private readonly i18n: I18nConfig) {}

  @Prompt({
    name: 'explore_network',
    description: 'Walk through a knowledge network: its object, relation and action types, and how to query them.',
    parameters: z.object({ kn_id: KN_ID }),
  })
  explore(@Payload() args: { kn_id?: string }, @Ctx() context: McpContext): PromptResult {
    const knId = this.knId(args, context);
    return this.result(context, 'Explore a knowledge network', {
      zh:
        `请带我了解知识网络 ${knId}。先读取资源 kn://${knId}（或调用 kn_schema_search）列出对象类、关系类和行动类，` +
        `按概念分组说明它们的含义；再挑一个核心对象类，用 query_object_instance 取几条实例，` +
        `并用 query_instance_subgraph 沿一条关系展示它们的关联。最后告诉我可以继续问哪些问题。`,
      en:
        `Walk me through the knowledge network ${knId}. First read the resource kn://${knId} (or call ` +
        `kn_schema_search) to list its object, relation and action types and explain them by concept group; ` +
        `then pick one central object type, fetch a few instances with query_object_instance, and follow one ` +
        `relation with query_instance_subgraph. End with questions I could ask next.`,
    });
  }

  @Prompt({
    name: 'answer_from_network',
    description: 'Answer a question from the knowledge network: search, fetch instances, follow relations, cite them.',
    parameters: z.object({ question: z.string().describe('The question to answer'), kn_id: KN_ID }),
  })
  answer(@Payload() args: { question: string; kn_id?: string }, @Ctx() context: McpContext): PromptResult {
    const knId = this.knId(args, context);
    return this.result(context, 'Answer a question from the knowledge network', {
      zh:
        `请基于知识网络 ${knId} 回答：${args.question}\n\n步骤：1. 用 kn_search 找到相关的概念和实例；` +
        `2. 用 query_object_instance 精确过滤实例；3. 需要关联信息时用 query_instance_subgraph；` +
        `4. 需要计算指标时用 resolve_logic_properties。回答中引用你用到的实例（对象类和主键），` +
        `知识网络中没有的内容要明确说明，不要编造。`,
      en:
        `Answer from the knowledge network ${knId}: ${args.question}\n\nSteps: 1. kn_search for the relevant ` +
        `concepts and instances; 2. query_object_instance to filter instances exactly; 3. query_instance_subgraph ` +
        `for related facts; 4. resolve_logic_properties for computed values. Cite every instance you use (object ` +
        `type and primary key), and say plainly what the network does not contain — never invent it.`,
    });
  }

  @Prompt({
    name: 'act_on_instance',
    description:
      'Find the action that fits a goal for one instance and show its parameters; never execute without the user.',
    parameters: z.object({
      ot_id: z.string().describe('Object type of the instance'),
      instance: z.string().describe('The instance: its primary key value or a JSON object of primary keys'),
      goal: z.string().describe('What the user wants to achieve'),
      kn_id: KN_ID,
    }),
  })
  act(
    @Payload() args: { ot_id: string; instance: string; goal: string; kn_id?: string },
    @Ctx() context: McpContext,
  ): PromptResult {
    const knId = this.knId(args, context);
    return this.result(context, 'Prepare an action on an instance', {
      zh:
        `在知识网络 ${knId} 中，针对对象类 ${args.ot_id} 的实例 ${args.instance}，目标是：${args.goal}。\n\n` +
        `1. 用 query_object_instance 确认该实例并取得其 _instance_identity；2. 用 search_schema 或 kn_search ` +
        `找到合适的行动类；3. 用 get_action_info 召回该行动，向我展示要调用的函数和每个参数的值。` +
        `未经我明确确认，绝不执行任何行动；确认后再用 execute_action 执行。`,
      en:
        `In the knowledge network ${knId}, for the ${args.ot_id} instance ${args.instance}, the goal is: ${args.goal}.\n\n` +
        `1. Confirm the instance with query_object_instance and take its _instance_identity; 2. find the fitting ` +
        `action type with search_schema or kn_search; 3. recall it with get_action_info and show me the function ` +
        `and the value of every parameter. Never execute any action without my explicit confirmation; once I ` +
        `confirm, run it with execute_action.`,
    });
  }

  private knId(args: { kn_id?: string }, context: McpContext): string {
    return args.kn_id?.trim() || connectionKnId(context) || '<kn_id>';
  }

  private result(context: McpContext, description: string, texts: Texts): PromptResult {
    const language: Language = languageFromHeaders(
      context.getRawRequest<Request>()?.headers ?? {},
      this.i18n.defaultLanguage,
    );
    const text = language.startsWith('zh') ? texts.zh : texts.en;
    return { description, messages: [{ role: 'user', content: { type: 'text', text } }] };
  }
}
