import { Language } from '../config/i18n.config';

/** One argument of a prompt, as prompts/list shows it. */
export interface PromptArgument {
  name: string;
  description: string;
  required: boolean;
}

export interface PromptResult {
  [key: string]: unknown;
  description: string;
  messages: { role: 'user'; content: { type: 'text'; text: string } }[];
}

type Texts = Record<'zh' | 'en', string>;

/** A prompt that teaches a tool chain; `tools` are the capabilities its text tells the model to call. */
export interface NetworkPrompt {
  name: string;
  description: string;
  arguments: readonly PromptArgument[];
  tools: readonly string[];
  title: string;
  texts(args: Record<string, string>, knId: string): Texts;
}

const KN_ID: PromptArgument = {
  name: 'kn_id',
  description: 'Knowledge network id (default: the connection X-Kn-ID)',
  required: false,
};

/**
 * Prompts that teach the tool chain, in the caller's language (X-Language / Accept-Language): explore a
 * network, answer a question from it with citations, and act on an instance safely. The tools each names
 * are checked against the capability catalog at start-up, and a caller is offered only the prompts whose
 * tools the access policy lets it call.
 */
export const NETWORK_PROMPTS: readonly NetworkPrompt[] = [
  {
    name: 'explore_network',
    title: 'Explore a knowledge network',
    description: 'Walk through a knowledge network: its object, relation and action types, and how to query them.',
    arguments: [KN_ID],
    tools: ['kn_schema_search', 'query_object_instance', 'query_instance_subgraph'],
    texts: (_args, knId) => ({
      zh:
        `请带我了解知识网络 ${knId}。先读取资源 kn://${knId}（或调用 kn_schema_search）列出对象类、关系类和行动类，` +
        `按概念分组说明它们的含义；再挑一个核心对象类，用 query_object_instance 取几条实例，` +
        `并用 query_instance_subgraph 沿一条关系展示它们的关联。最后告诉我可以继续问哪些问题。`,
      en:
        `Walk me through the knowledge network ${knId}. First read the resource kn://${knId} (or call ` +
        `kn_schema_search) to list its object, relation and action types and explain them by concept group; ` +
        `then pick one central object type, fetch a few instances with query_object_instance, and follow one ` +
        `relation with query_instance_subgraph. End with questions I could ask next.`,
    }),
  },
  {
    name: 'answer_from_network',
    title: 'Answer a question from the knowledge network',
    description: 'Answer a question from the knowledge network: search, fetch instances, follow relations, cite them.',
    arguments: [{ name: 'question', description: 'The question to answer', required: true }, KN_ID],
    tools: ['kn_search', 'query_object_instance', 'query_instance_subgraph', 'resolve_logic_properties'],
    texts: (args, knId) => ({
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
    }),
  },
  {
    name: 'act_on_instance',
    title: 'Prepare an action on an instance',
    description:
      'Find the action that fits a goal for one instance and show its parameters; never execute without the user.',
    arguments: [
      { name: 'ot_id', description: 'Object type of the instance', required: true },
      {
        name: 'instance',
        description: 'The instance: its primary key value or a JSON object of primary keys',
        required: true,
      },
      { name: 'goal', description: 'What the user wants to achieve', required: true },
      KN_ID,
    ],
    tools: ['query_object_instance', 'search_schema', 'kn_search', 'get_action_info', 'execute_action'],
    texts: (args, knId) => ({
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
    }),
  },
];

/** A prompt's messages in the caller's language. */
export function renderPrompt(
  prompt: NetworkPrompt,
  args: Record<string, string>,
  knId: string,
  language: Language,
): PromptResult {
  const texts = prompt.texts(args, knId);
  const text = language.startsWith('zh') ? texts.zh : texts.en;
  return { description: prompt.title, messages: [{ role: 'user', content: { type: 'text', text } }] };
}
