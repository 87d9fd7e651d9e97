/**
 * Knowledge-base search on the demo documents (examples/docs, embedded backend) through the official
 * MCP SDK client and REST: seed 003's Markdown layout, ranking of obvious questions, the suggestion
 * variants, and argument bounds answered as isError results / 400s.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import request from 'supertest';
import { INTERNAL_CALLER, startTestApp, TestApp } from './support/app';
import { connectV1, ToolCallResult } from './support/mcp-clients';

const KB_REST = '/api/agent-retrieval/v1/kb';

interface SearchOutput {
  query: string;
  results: { knowledge_filename: string; knowledge_base_id: string; score: number; content: string }[];
  total_count: number;
  returned: number;
  search_mode: string;
}

function texts(result: ToolCallResult): string[] {
  return ((result.content ?? []) as { type: string; text: string }[]).map((block) => block.text);
}

describe('knowledge-base search, embedded backend (e2e)', () => {
  let app: TestApp;
  let client: Client;

  const search = async (args: Record<string, unknown>): Promise<ToolCallResult> =>
    (await client.callTool({ name: 'weknora_search', arguments: args })) as ToolCallResult;

  beforeAll(async () => {
    app = await startTestApp();
    client = await connectV1(app.url);
  });

  afterAll(async () => {
    await client?.close();
    await app.close();
  });

  it('lists weknora_search with the seed schema and weknora_list_knowledge_bases, both read-only', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((candidate) => candidate.name === 'weknora_search')!;
    expect(tool.description).toMatch(/^Search knowledge bases for relevant information using hybrid search/);
    expect(tool.inputSchema.required).toEqual(['query']);
    expect(tool.inputSchema.properties).toMatchObject({
      query: { type: 'string', minLength: 1, maxLength: 2000 },
      search_mode: { enum: ['hybrid', 'vector', 'keyword'], default: 'hybrid' },
      top_k: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
      min_score: { type: 'number', minimum: 0, maximum: 1, default: 0.5 },
      rerank: { type: 'boolean', default: true },
    });
    expect(Object.keys(tool.inputSchema.properties ?? {})).toHaveLength(5);
    expect(tool.annotations?.readOnlyHint).toBe(true);
    expect(
      tools.find((candidate) => candidate.name === 'weknora_list_knowledge_bases')?.annotations?.readOnlyHint,
    ).toBe(true);
  });

  it('answers in the seed layout: summary, matched documents, excerpt; structuredContent has the raw results', async () => {
    const result = await search({ query: 'OOMKilled memory limit', top_k: 5 });
    expect(result.isError).toBeFalsy();
    const [summary, matched, ...rest] = texts(result);
    const output = result.structuredContent as unknown as SearchOutput;
    expect(summary).toBe(
      `## Search Results\n\n**Query:** OOMKilled memory limit\n**Total Found:** ${output.total_count}\n` +
        `**Returned:** ${output.returned}\n**Search Mode:** hybrid\n\n`,
    );
    expect(output.returned).toBe(5);
    expect(matched.startsWith('### Matched Documents\n\n#### [1] ')).toBe(true);
    const entries = matched.split(/^#### /m).slice(1);
    expect(entries).toHaveLength(5);
    entries.forEach((entry, index) => {
      const hit = output.results[index];
      expect(entry).toMatch(new RegExp(`^\\[${index + 1}\\] .+\\n- \\*\\*Score:\\*\\* \\d{1,3}\\.\\d%\\n`));
      expect(entry).toContain(`- **Score:** ${(hit.score * 100).toFixed(1)}%\n`);
      expect(entry).toContain(`- **Source:** ${hit.knowledge_filename}\n`);
      expect(entry).toMatch(/- \*\*Match Type:\*\* (keyword|vector|hybrid)\n\n> /);
      const excerpt = entry.split('\n\n')[1];
      const quoted = excerpt.replace(/^> ?/gm, '');
      expect([...quoted.replace(/\.\.\.$/, '')].length).toBeLessThanOrEqual(500);
      if ([...hit.content].length > 500) expect(quoted.endsWith('...')).toBe(true);
    });
    expect(rest).toEqual([]);
    expect(output.results[0].knowledge_filename).toBe('oomkilled.md');
  });

  it.each([
    ['二甲双胍 糖化血红蛋白 控制目标', 'diabetes-guideline.md'],
    ['爽约 取消预约 暂停预约资格', 'appointment-rules.md'],
    ['处方有效期是多久', 'prescription-rules.md'],
    ['pod keeps restarting CrashLoopBackOff', 'crashloopbackoff.md'],
    ['container killed for exceeding its memory limit', 'oomkilled.md'],
  ])('ranks the obvious document first for "%s"', async (query, file) => {
    const result = await search({ query });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as unknown as SearchOutput).results[0]?.knowledge_filename).toBe(file);
  });

  it('shows the no-result suggestions when nothing matches', async () => {
    const result = await search({ query: 'quantum chromodynamics lattice gluon' });
    const blocks = texts(result);
    expect((result.structuredContent as unknown as SearchOutput).returned).toBe(0);
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toContain('**Total Found:** 0\n**Returned:** 0\n');
    expect(blocks[1]).toBe(
      '\n### Suggestions for Better Results\n\n- Try different keywords or rephrase your query\n' +
        '- Use more general terms if query is too specific\n- Check if the topic exists in the knowledge bases\n',
    );
  });

  it('returns exactly top_k results; fewer than three come with the few-results suggestions', async () => {
    const three = await search({ query: 'kubectl rollout undo deployment', top_k: 3 });
    expect((three.structuredContent as unknown as SearchOutput).returned).toBe(3);
    expect(texts(three)).toHaveLength(2);
    const two = await search({ query: 'kubectl rollout undo deployment', top_k: 2 });
    const blocks = texts(two);
    expect((two.structuredContent as unknown as SearchOutput).returned).toBe(2);
    expect(blocks[2]).toBe(
      '\n### Suggestions for Better Results\n\n- Consider lowering min_score to get more results\n' +
        '- Try breaking the query into smaller parts\n- Use "keyword" mode if looking for exact terms\n',
    );
  });

  it('scopes the search to the connection X-WeKnora-KB-IDs and lists the knowledge bases', async () => {
    const scoped = await connectV1(app.url, { 'X-WeKnora-KB-IDs': 'clinic-guidelines' });
    try {
      const result = (await scoped.callTool({
        name: 'weknora_search',
        arguments: { query: 'pod restart 重启', min_score: 0 },
      })) as ToolCallResult;
      const output = result.structuredContent as unknown as SearchOutput;
      expect(output.results.every((hit) => hit.knowledge_base_id === 'clinic-guidelines')).toBe(true);
      const list = (await scoped.callTool({ name: 'weknora_list_knowledge_bases', arguments: {} })) as ToolCallResult;
      expect(list.structuredContent).toEqual({
        knowledge_bases: [expect.objectContaining({ id: 'clinic-guidelines', name: '诊所制度与诊疗指南' })],
      });
    } finally {
      await scoped.close();
    }
    const all = await request(app.url).get(`${KB_REST}/knowledge-bases`).expect(200);
    expect(all.body.knowledge_bases.map((kb: { id: string }) => kb.id)).toEqual(['clinic-guidelines', 'k8s-runbooks']);
    for (const kb of all.body.knowledge_bases) expect(kb.document_count).toBeGreaterThanOrEqual(20);
  });

  it('REST twin answers the same results as JSON on both prefixes, TOON on request', async () => {
    const body = { query: 'pvc stuck pending storage class', top_k: 4, min_score: 0 };
    const rest = await request(app.url).post(`${KB_REST}/search`).send(body).expect(200);
    const tool = (await search(body)).structuredContent as unknown as SearchOutput;
    expect(rest.body).toEqual(tool);
    expect(rest.body).toMatchObject({ returned: 4, search_mode: 'hybrid', query: body.query });
    await request(app.url).post('/api/agent-retrieval/in/v1/kb/search').set(INTERNAL_CALLER).send(body).expect(200);
    const toon = await request(app.url).post(`${KB_REST}/search?response_format=toon`).send(body).expect(200);
    expect(toon.headers['content-type']).toMatch(/application\/toon/);
  });

  describe('bounds', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['an empty query', { query: '' }, 'query is required'],
      ['a 2001-character query', { query: '糖'.repeat(2001) }, 'query: at most 2000 characters'],
      ['top_k 0', { query: 'x', top_k: 0 }, 'top_k'],
      ['top_k 51', { query: 'x', top_k: 51 }, 'top_k'],
      ['min_score 1.5', { query: 'x', min_score: 1.5 }, 'min_score'],
      ['an unknown search_mode', { query: 'x', search_mode: 'fuzzy' }, 'search_mode'],
      ['vector mode without an embedding endpoint', { query: 'x', search_mode: 'vector' }, 'EMBEDDING_URL'],
    ];

    it.each(cases)('%s is an isError result over MCP and a 400 over REST', async (_name, args, details) => {
      const result = await search(args);
      expect(result.isError).toBe(true);
      expect(texts(result)).toHaveLength(1);
      expect(texts(result)[0]).toMatch(/^Search error: /);
      expect(texts(result)[0]).toContain(details);
      const rest = await request(app.url).post(`${KB_REST}/search`).send(args).expect(400);
      expect(rest.body.code).toMatch(/^agentRetrieval\.BadRequest\./);
      expect(String(rest.body.details)).toContain(details);
    });

    it('a 2000-character Chinese query is accepted', async () => {
      const result = await search({ query: '糖尿病'.repeat(666) + '糖尿' });
      expect(result.isError).toBeFalsy();
    });

    it('hostile text is searched as words, never as FTS syntax', async () => {
      for (const query of ['"unbalanced', 'NEAR(a b', 'a OR OR b *', "'; DROP TABLE passages; --", '\\u0000']) {
        const result = await search({ query });
        expect(result.isError).toBeFalsy();
      }
      await request(app.url).post(`${KB_REST}/search`).send({ query: '*' }).expect(200);
    });
  });
});
