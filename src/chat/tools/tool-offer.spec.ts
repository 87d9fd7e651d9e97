import { ChatMessage } from '../chat.types';
import { chooseOffered, OfferCandidate, OfferHints, requestTerms, termsOf } from './tool-offer';

function candidate(name: string, bytes: number, description = '', networkScoped = false): OfferCandidate {
  return { name, bytes, nameTerms: termsOf(name), terms: termsOf(`${name} ${description}`), networkScoped };
}

const user = (content: string): ChatMessage => ({ role: 'user', content });

const CANDIDATES = [
  candidate('find_tools', 300),
  candidate('kn_search', 2000, 'Searches a knowledge network', true),
  candidate('list_knowledge_networks', 700),
  candidate('weknora_search', 2000, 'Searches WeKnora knowledge bases'),
  candidate('ci_call_chain', 1100, 'Call chain of a function in a code repository'),
  candidate('clinic_tools__create_prescription', 900, 'Creates a prescription for a patient 开处方'),
  candidate('k8s_tools__restart_deployment', 800, 'Restarts a deployment 重启部署'),
];

const offer = (hints: OfferHints, budget: number, pinned: string[] = ['find_tools']) =>
  [...chooseOffered(CANDIDATES, hints, new Set(pinned), budget)].sort();

describe('termsOf', () => {
  it('splits names on underscores, drops short and common words and a plural s', () => {
    expect([...termsOf('list_knowledge_networks for the kn')]).toEqual(['list', 'knowledge', 'network']);
  });

  it('reads Chinese as pairs of neighbouring characters', () => {
    expect([...termsOf('重启部署 k8s')]).toEqual(['重启', '启部', '部署', 'k8s']);
  });
});

describe('requestTerms', () => {
  it('reads the last four user messages and the network id, not the assistant or older messages', () => {
    const messages: ChatMessage[] = [
      user('ancient question'),
      ...['one', 'two', 'three', 'four'].map((word) => user(`message ${word}`)),
      { role: 'assistant', content: 'assistant words' },
    ];
    expect([...requestTerms({ knId: 'clinic', messages })].sort()).toEqual(
      ['clinic', 'four', 'message', 'one', 'three', 'two'].sort(),
    );
  });

  it('reads the text parts of a message given as parts', () => {
    const messages = [{ role: 'user', content: [{ type: 'text', text: 'prescription' }, { type: 'image_url' }] }];
    expect([...requestTerms({ messages: messages as ChatMessage[] })]).toEqual(['prescription']);
  });
});

describe('chooseOffered', () => {
  it('offers the pinned, then the discovery tools, then the most relevant ones that still fit', () => {
    const hints = { knId: 'clinic', messages: [user('给糖尿病患者开处方 prescription')] };
    expect(offer(hints, 4000)).toEqual([
      'clinic_tools__create_prescription',
      'find_tools',
      'kn_search',
      'list_knowledge_networks',
    ]);
  });

  it('keeps within the budget, skipping a tool too big for what is left', () => {
    const hints = { messages: [user('restart the deployment')] };
    const chosen = offer(hints, 3000);
    const bytes = CANDIDATES.filter((c) => chosen.includes(c.name)).reduce((sum, c) => sum + c.bytes, 0);
    expect(bytes).toBeLessThanOrEqual(3000);
    expect(chosen).toEqual(['find_tools', 'kn_search', 'list_knowledge_networks']);
    expect(offer(hints, 3800)).toContain('k8s_tools__restart_deployment');
  });

  it('offers a pinned tool even past the budget', () => {
    expect(offer({ messages: [user('hi')] }, 100, ['find_tools', 'weknora_search'])).toEqual([
      'find_tools',
      'weknora_search',
    ]);
  });

  it('puts the tools the conversation called recently first', () => {
    const messages: ChatMessage[] = [
      user('which functions call main?'),
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ci_call_chain', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'main ← start' },
      user('and then?'),
    ];
    expect(offer({ messages }, 1500)).toEqual(['ci_call_chain', 'find_tools']);
  });

  it('breaks ties in catalog order and counts a network-scoped tool as relevant when the request names a network', () => {
    const hints = { knId: 'shop', messages: [user('hello')] };
    const chosen = chooseOffered(
      [candidate('a_tool', 100), candidate('b_tool', 100), candidate('c_tool', 100, '', true)],
      hints,
      new Set(),
      200,
    );
    expect([...chosen]).toEqual(['c_tool', 'a_tool']);
  });
});
