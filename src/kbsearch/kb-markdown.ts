import type { ErrorBody } from '../common/errors/app.exception';
import type { OwnText } from '../capabilities/capability';
import type { KbSearchResponse } from './kb.types';
import { WeKnoraAnswered } from './weknora/weknora-knowledge-base';

const EXCERPT_LENGTH = 500;

/** One line: a query or title cannot open a heading or a list item of its own in the layout. */
const inline = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The first 500 characters (code points), `...` when cut, every line quoted so a passage stays inside its quote. */
function excerpt(content: string): string {
  const characters = [...content];
  const text = characters.slice(0, EXCERPT_LENGTH).join('') + (characters.length > EXCERPT_LENGTH ? '...' : '');
  return text
    .split('\n')
    .map((line) => `> ${line}`.trimEnd())
    .join('\n');
}

/**
 * `weknora_search`'s text exactly in seed 003's layout: the summary, "Matched Documents" (title, score
 * as a percentage with one decimal, source file, match type, excerpt) when there are results, and the
 * seed's suggestions when fewer than 3 came back.
 */
export function searchMarkdown(response: KbSearchResponse): string[] {
  const { results } = response;
  const blocks = [
    '## Search Results\n\n' +
      `**Query:** ${inline(response.query)}\n` +
      `**Total Found:** ${response.total_count || results.length}\n` +
      `**Returned:** ${results.length}\n` +
      `**Search Mode:** ${response.search_mode}\n\n`,
  ];
  if (results.length > 0) {
    let text = '### Matched Documents\n\n';
    results.forEach((result, index) => {
      text += `#### [${index + 1}] ${inline(result.knowledge_title) || 'Untitled'}\n`;
      text += `- **Score:** ${(result.score * 100).toFixed(1)}%\n`;
      text += `- **Source:** ${inline(result.knowledge_filename) || 'Unknown'}\n`;
      text += `- **Match Type:** ${result.match_type || 'hybrid'}\n\n`;
      text += `${excerpt(result.content)}\n\n`;
    });
    blocks.push(text);
  }
  if (results.length < 3) {
    let suggestion = '\n### Suggestions for Better Results\n\n';
    if (results.length === 0) {
      suggestion += '- Try different keywords or rephrase your query\n';
      suggestion += '- Use more general terms if query is too specific\n';
      suggestion += '- Check if the topic exists in the knowledge bases\n';
    } else {
      suggestion += '- Consider lowering min_score to get more results\n';
      suggestion += '- Try breaking the query into smaller parts\n';
      suggestion += '- Use "keyword" mode if looking for exact terms\n';
    }
    blocks.push(suggestion);
  }
  return blocks;
}

/**
 * The seed's failure lines: `Search failed: <status> - <message>` when WeKnora answered with an error
 * status, `Search error: <message>` for everything else (bad arguments, timeouts, refused connections).
 */
export function searchFailure(error: unknown, body: ErrorBody): string {
  const message = typeof body.details === 'string' && body.details !== '' ? body.details : body.description;
  if (error instanceof WeKnoraAnswered) return `Search failed: ${error.upstreamStatus} - ${message}`;
  return `Search error: ${message}`;
}

/** weknora_search's text: the Markdown of the answer, the seed's failure lines. */
export const SEARCH_TEXT: OwnText = {
  result: (value) => searchMarkdown(value as unknown as KbSearchResponse),
  failure: searchFailure,
};
