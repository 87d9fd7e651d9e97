/**
 * Resources, prompts and completions of the MCP endpoint on the demo networks, through the official
 * SDK clients: the networks as `kn://` resources scoped by the connection's X-Kn-ID, schema templates
 * read as Markdown with a JSON alternative, the tool-chain prompts in the caller's language, and
 * completion values for ot_id.
 */
import { startTestApp, TestApp } from './support/app';
import { connectV1, connectV2 } from './support/mcp-clients';

describe('MCP resources, prompts and completions (e2e)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });

  afterAll(async () => {
    await app.close();
  });

  it('resources/list shows every network without X-Kn-ID and only the connection’s network with it', async () => {
    const open = await connectV1(app.url);
    const scoped = await connectV1(app.url, { 'X-Kn-ID': 'clinic' });
    try {
      const all = (await open.listResources()).resources.map((resource) => resource.uri);
      expect(all).toEqual(expect.arrayContaining(['kn://clinic', 'kn://k8s_ops']));
      expect((await scoped.listResources()).resources.map((resource) => resource.uri)).toEqual(['kn://clinic']);
      const templates = (await scoped.listResourceTemplates()).resourceTemplates.map(
        (template) => template.uriTemplate,
      );
      expect(templates).toEqual(
        expect.arrayContaining([
          'kn://{kn_id}',
          'kn://{kn_id}/object_types/{ot_id}',
          'kn://{kn_id}/relation_types/{rt_id}',
          'kn://{kn_id}/action_types/{at_id}',
        ]),
      );
      await expect(scoped.readResource({ uri: 'kn://k8s_ops' })).rejects.toThrow(/outside this connection/);
    } finally {
      await open.close();
      await scoped.close();
    }
  });

  it('resources/read of an object type returns its properties as Markdown and as JSON', async () => {
    const client = await connectV2(app.url, { 'X-Kn-ID': 'clinic' }, true);
    try {
      const { contents } = await client.readResource({ uri: 'kn://clinic/object_types/patient' });
      const markdown = contents.find((item) => item.mimeType === 'text/markdown') as { text: string };
      const json = contents.find((item) => item.mimeType === 'application/json') as { text: string };
      expect(markdown.text).toMatch(/^# .+ \(`patient`\)/);
      expect(markdown.text).toContain('| `patient_id` | string |');
      const parsed = JSON.parse(json.text) as { id: string; data_properties: { name: string }[] };
      expect(parsed.id).toBe('patient');
      expect(parsed.data_properties.map((property) => property.name)).toContain('patient_id');
      const network = await client.readResource({ uri: 'kn://clinic' });
      expect((network.contents[0] as { text: string }).text).toContain('## Object types');
    } finally {
      await client.close();
    }
  });

  it('prompts/get explore_network names the tools to use, in the caller’s language', async () => {
    const zh = await connectV1(app.url, { 'X-Kn-ID': 'clinic', 'X-Language': 'zh-CN' });
    const en = await connectV1(app.url, { 'X-Kn-ID': 'clinic', 'X-Language': 'en-US' });
    try {
      const names = (await zh.listPrompts()).prompts.map((prompt) => prompt.name);
      expect(names).toEqual(expect.arrayContaining(['explore_network', 'answer_from_network', 'act_on_instance']));
      const chinese = await zh.getPrompt({ name: 'explore_network', arguments: {} });
      const text = (chinese.messages[0].content as { text: string }).text;
      expect(text).toContain('知识网络 clinic');
      for (const tool of ['kn_schema_search', 'query_object_instance', 'query_instance_subgraph'])
        expect(text).toContain(tool);
      const english = await en.getPrompt({
        name: 'act_on_instance',
        arguments: { ot_id: 'patient', instance: 'P00276', goal: 'prescribe' },
      });
      const action = (english.messages[0].content as { text: string }).text;
      expect(action).toContain('get_action_info');
      expect(action).toMatch(/Never execute any action without my explicit confirmation/);
    } finally {
      await zh.close();
      await en.close();
    }
  });

  it('completion/complete offers matching ot_id values from the served network', async () => {
    const client = await connectV1(app.url, { 'X-Kn-ID': 'clinic' });
    try {
      const result = await client.complete({
        ref: { type: 'ref/resource', uri: 'kn://clinic/object_types/{ot_id}' },
        argument: { name: 'ot_id', value: 'pa' },
      });
      expect(result.completion.values).toEqual(['patient']);
      const networks = await client.complete({
        ref: { type: 'ref/prompt', name: 'explore_network' },
        argument: { name: 'kn_id', value: '' },
      });
      expect(networks.completion.values).toEqual(expect.arrayContaining(['clinic', 'k8s_ops']));
    } finally {
      await client.close();
    }
  });
});
