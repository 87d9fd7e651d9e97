import { ChatMessage } from '../chat.types';

/**
 * Offered first whenever they fit: where a conversation about a network starts (which networks, what a
 * network holds, its schema) and the session's own files. The model finds the rest with find_tools.
 */
export const DISCOVERY_TOOLS: readonly string[] = [
  'kn_search',
  'kn_schema_search',
  'list_knowledge_networks',
  'read_file',
  'list_files',
];

/** The user messages, from the last, whose words choose the tools. */
const RECENT_USER_MESSAGES = 4;
/** The messages, from the last, whose tool calls make those tools relevant again. */
const RECENT_MESSAGES = 12;
/** Characters read from one message: the choice needs its gist, not all of a pasted document. */
const MESSAGE_CHARS = 2000;

const STOP_WORDS = new Set(
  'the and for with from that this what which are was were has have not you your can how use any all its into only'.split(
    ' ',
  ),
);

/** What one request is about, as the chat door knows it. */
export interface OfferHints {
  knId?: string;
  messages: readonly ChatMessage[];
  /** A tool the request's `tool_choice` names: always offered. */
  toolChoice?: string;
}

/** A server tool that may be offered: its name, its definition's size and the words that describe it. */
export interface OfferCandidate {
  name: string;
  bytes: number;
  /** The words of its name, then of its descriptions (every language) and its name. */
  nameTerms: ReadonlySet<string>;
  terms: ReadonlySet<string>;
  /** The tool reads a knowledge network, so a request naming one makes it more relevant. */
  networkScoped: boolean;
}

/**
 * Words of a text for matching: Latin-script words of three or more letters (a plural `s` dropped,
 * common words left out), and each pair of neighbouring Han characters, since Chinese has no spaces.
 */
export function termsOf(text: string): Set<string> {
  const terms = new Set<string>();
  for (const run of text.toLowerCase().match(/\p{Script=Han}+|[^\s\p{P}\p{S}\p{Script=Han}]+/gu) ?? []) {
    if (/^\p{Script=Han}/u.test(run)) {
      const characters = [...run];
      for (let index = 0; index + 1 < characters.length; index += 1) {
        terms.add(characters[index] + characters[index + 1]);
      }
    } else if (run.length >= 3 && !STOP_WORDS.has(run)) {
      terms.add(run.length > 4 && run.endsWith('s') ? run.slice(0, -1) : run);
    }
  }
  return terms;
}

/** The words of the request's recent user messages and of its network id. */
export function requestTerms(hints: OfferHints): Set<string> {
  const texts: string[] = hints.knId ? [hints.knId] : [];
  let users = 0;
  for (let index = hints.messages.length - 1; index >= 0 && users < RECENT_USER_MESSAGES; index -= 1) {
    const message = hints.messages[index];
    if (message.role !== 'user') continue;
    users += 1;
    texts.push(messageText(message).slice(0, MESSAGE_CHARS));
  }
  return termsOf(texts.join('\n'));
}

/** The tools the recent assistant messages called: a conversation tends to call them again. */
export function recentlyCalled(messages: readonly ChatMessage[]): Set<string> {
  const called = new Set<string>();
  for (const message of messages.slice(-RECENT_MESSAGES)) {
    for (const call of message.tool_calls ?? []) called.add(call.function.name);
  }
  return called;
}

/** How well a tool matches the words: two per word in its name, one per word only in its description. */
export function relevance(candidate: OfferCandidate, terms: ReadonlySet<string>): number {
  let score = 0;
  for (const term of terms) {
    if (candidate.nameTerms.has(term)) score += 2;
    else if (candidate.terms.has(term)) score += 1;
  }
  return score;
}

/**
 * The names to offer within `budgetBytes` of definitions: the pinned ones whatever their size (find_tools,
 * the tool_choice tool, the ones find_tools revealed), then, while they fit, the tools the conversation
 * called recently, the discovery tools, and the others by relevance to the request (catalog order on ties).
 */
export function chooseOffered(
  candidates: readonly OfferCandidate[],
  hints: OfferHints,
  pinned: ReadonlySet<string>,
  budgetBytes: number,
): Set<string> {
  const terms = requestTerms(hints);
  const called = recentlyCalled(hints.messages);
  const rank = (candidate: OfferCandidate): number => {
    if (called.has(candidate.name)) return 3_000_000;
    const discovery = DISCOVERY_TOOLS.indexOf(candidate.name);
    if (discovery >= 0) return 2_000_000 - discovery;
    const networkBonus = hints.knId && candidate.networkScoped ? 1 : 0;
    return relevance(candidate, terms) + networkBonus;
  };
  const offered = new Set<string>();
  let used = 0;
  for (const candidate of candidates) {
    if (!pinned.has(candidate.name)) continue;
    offered.add(candidate.name);
    used += candidate.bytes;
  }
  const ranked = candidates
    .filter((candidate) => !offered.has(candidate.name))
    .map((candidate, order) => ({ candidate, order, rank: rank(candidate) }))
    .sort((a, b) => b.rank - a.rank || a.order - b.order);
  for (const { candidate } of ranked) {
    if (used + candidate.bytes > budgetBytes) continue;
    offered.add(candidate.name);
    used += candidate.bytes;
  }
  return offered;
}

function messageText(message: ChatMessage): string {
  if (typeof message.content === 'string') return message.content;
  if (!Array.isArray(message.content)) return '';
  return message.content
    .map((part) => (isTextPart(part) ? part.text : ''))
    .filter(Boolean)
    .join(' ');
}

function isTextPart(part: unknown): part is { type: 'text'; text: string } {
  const candidate = part as { type?: unknown; text?: unknown } | null;
  return candidate?.type === 'text' && typeof candidate.text === 'string';
}
