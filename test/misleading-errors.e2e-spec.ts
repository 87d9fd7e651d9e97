/**
 * Issue 31, item 5: errors that said the wrong thing. A body not sent as JSON is 415 naming the type (REST
 * twins, hand-written routes and chat, each in its own shape), a string for an integer is a type error,
 * a misspelt condition key is named, and one error body speaks one language: English unless asked or configured.
 */
import * as path from 'node:path';
import request from 'supertest';
import { INTERNAL_CALLER, startTestApp, TestApp } from './support/app';
import { LlmStandin } from './support/llm-standin';
import { connectV1, errorBodyOf } from './support/mcp-clients';

const FIXTURES = path.join(__dirname, 'fixtures', 'networks');
const PRIVATE = '/api/agent-retrieval/in/v1';
const PUBLIC = '/api/agent-retrieval/v1';
const TOKEN = 'tok-alice';
const KN = 'clinic_mini';
const HAN = /[\u4e00-\u9fff]/;

describe('errors that say what is wrong (e2e)', () => {
  const model = new LlmStandin();
  let app: TestApp;
  const rest = (route: string) => request(app.url).post(`${PUBLIC}/${route}`).set('authorization', `Bearer ${TOKEN}`);

  beforeAll(async () => {
    app = await startTestApp({
      KN_DIR: FIXTURES,
      AUTH_MODE: 'static',
      AUTH_STATIC_TOKENS: `${TOKEN}=alice:user`,
      LLM_BASE_URL: await model.start(),
    });
  });

  afterAll(async () => {
    await app.close();
    await model.stop();
  });

  describe('a body not sent as JSON', () => {
    const body = JSON.stringify({ kn_id: KN, query: '糖尿病' });

    it.each([
      ['a form (curl -d)', 'application/x-www-form-urlencoded', 'application/x-www-form-urlencoded'],
      ['text', 'text/plain', 'text/plain'],
      ['no Content-Type', undefined, '-'],
    ])('%s on a catalog route is 415 naming application/json', async (_case, contentType, received) => {
      const call = rest('kn/kn_search');
      const response = await (contentType ? call.set('content-type', contentType) : call.unset('content-type'))
        .send(Buffer.from(body))
        .expect(415);
      expect(response.body).toMatchObject({
        code: 'Public.UnsupportedMediaType',
        description: 'Unsupported media type',
        details: `the request body must be sent as application/json (Content-Type: ${received})`,
      });
    });

    it('is 415 on the private prefix too', async () => {
      const keys = await request(app.url)
        .post(`${PRIVATE}/kn/query_object_instance`)
        .set(INTERNAL_CALLER)
        .set('x-account-id', 'alice')
        .set('x-account-type', 'user')
        .type('form')
        .send('kn_id=clinic_mini&ot_id=patient')
        .expect(415);
      expect(keys.body.code).toBe('Public.UnsupportedMediaType');
    });

    it('is 415 in the OpenAI error shape on the chat door', async () => {
      const response = await request(app.url)
        .post('/v1/chat/completions')
        .set('authorization', `Bearer ${TOKEN}`)
        .set('content-type', 'text/plain')
        .send(JSON.stringify({ model: 'standin-model', messages: [{ role: 'user', content: 'hi' }] }))
        .expect(415);
      expect(response.body).toEqual({
        error: {
          message: expect.stringContaining('application/json'),
          type: 'invalid_request_error',
          code: 'Public.UnsupportedMediaType',
        },
      });
      expect(model.bodies).toEqual([]);
    });

    it('an empty body of no type is still validated as no fields, and JSON with a charset is JSON', async () => {
      const empty = await rest('kn/kn_search').unset('content-type').expect(400);
      expect(empty.body.code).toBe('agentRetrieval.BadRequest.ValidationRequired');
      await rest('kn/kn_search').set('content-type', 'application/json; charset=utf-8').send(body).expect(200);
    });
  });

  describe('a string where an integer belongs', () => {
    const wrongType = {
      code: 'agentRetrieval.BadRequest.ValidationType',
      details: 'Parameter limit must be of type number, not string',
    };

    it('is a type error naming the field over REST and MCP alike', async () => {
      const input = { kn_id: KN, ot_id: 'patient', limit: '10' };
      const response = await rest('kn/query_object_instance').send(input).expect(400);
      expect(response.body).toMatchObject(wrongType);
      const mcp = await connectV1(app.url, { authorization: `Bearer ${TOKEN}` });
      try {
        const result = await mcp.callTool({ name: 'query_object_instance', arguments: input });
        expect(errorBodyOf(result as never)).toMatchObject(wrongType);
      } finally {
        await mcp.close();
      }
    });

    it('a fraction is named as not an integer; a number out of range keeps its range message', async () => {
      const fraction = await rest('kn/query_object_instance')
        .send({ kn_id: KN, ot_id: 'patient', limit: 2.5 })
        .expect(400);
      expect(fraction.body.details).toBe('Parameter limit must be of type integer, not number');
      const big = await rest('kn/query_object_instance')
        .send({ kn_id: KN, ot_id: 'patient', limit: 10001 })
        .expect(400);
      expect(big.body).toMatchObject({
        code: 'agentRetrieval.BadRequest.ValidationRange',
        details: 'Parameter limit must be less than or equal to 10000',
      });
    });
  });

  describe('a misspelt condition key', () => {
    const condition = { operation: '==', feild: 'name', value: '张伟' };
    const named = {
      code: 'agentRetrieval.BadRequest.ValidationFormat',
      details: 'Parameter condition has unknown key(s): feild',
    };

    it('is named, over REST and MCP alike', async () => {
      const input = { kn_id: KN, ot_id: 'patient', condition };
      const response = await rest('kn/query_object_instance').send(input).expect(400);
      expect(response.body).toMatchObject(named);
      const mcp = await connectV1(app.url, { authorization: `Bearer ${TOKEN}` });
      try {
        const result = await mcp.callTool({ name: 'query_object_instance', arguments: input });
        expect(errorBodyOf(result as never)).toMatchObject(named);
      } finally {
        await mcp.close();
      }
    });

    it('is named deep in a subgraph path', async () => {
      const response = await rest('kn/query_instance_subgraph')
        .send({
          kn_id: KN,
          relation_type_paths: [
            {
              object_types: [
                { id: 'patient', condition: { operation: 'and', sub_condition: [] } },
                { id: 'diagnosis' },
              ],
              relation_types: [{ relation_type_id: 'patient_has_diagnosis' }],
            },
          ],
        })
        .expect(400);
      expect(response.body.details).toBe(
        'Parameter relation_type_paths[0].object_types[0].condition has unknown key(s): sub_condition',
      );
    });
  });

  describe('one language per error body', () => {
    it('is English throughout when the caller names no language', async () => {
      const response = await rest('kn/kn_search').send({ query: '糖尿病' }).expect(400);
      expect(response.headers['content-language']).toBe('en-US');
      expect(response.body).toMatchObject({
        code: 'agentRetrieval.BadRequest.ValidationRequired',
        link: 'None',
        details: 'kn_id is required (configure X-Kn-ID header or pass kn_id in arguments)',
      });
      expect(JSON.stringify(response.body)).not.toMatch(HAN);
    });

    it('is Chinese throughout, details included, when the caller asks for Chinese', async () => {
      const cases = [
        rest('kn/kn_search').set('x-language', 'zh-CN').send({ query: '糖尿病' }),
        rest('kn/query_object_instance')
          .set('accept-language', 'zh-CN')
          .send({ kn_id: KN, ot_id: 'patient', limit: '10' }),
        rest('kn/kn_search').set('x-language', 'zh-CN').type('form').send('kn_id=clinic_mini'),
        request(app.url).get(`${PUBLIC}/no/such/route`).set('x-language', 'zh-CN'),
      ];
      for (const response of await Promise.all(cases)) {
        expect(response.headers['content-language']).toBe('zh-Hans');
        for (const part of ['description', 'solution', 'details'] as const) {
          expect({ part, text: response.body[part] }).toEqual({ part, text: expect.stringMatching(HAN) });
        }
      }
    });

    it('falls back to English as a whole when the details exist only in English', async () => {
      const response = await rest('kn/query_object_instance')
        .set('x-language', 'zh-CN')
        .send({ kn_id: KN, ot_id: 'no_such_type' })
        .expect(404);
      expect(response.headers['content-language']).toBe('en-US');
      expect(JSON.stringify(response.body)).not.toMatch(HAN);
    });

    it('the MCP door says the same in the same language', async () => {
      const mcp = await connectV1(app.url, { authorization: `Bearer ${TOKEN}`, 'x-language': 'zh-CN' });
      try {
        const result = await mcp.callTool({ name: 'kn_search', arguments: { query: '糖尿病' } });
        const body = errorBodyOf(result as never);
        expect(body.code).toBe('agentRetrieval.BadRequest.ValidationRequired');
        expect(body.details).toBe('kn_id 为必填项（请配置 X-Kn-ID 请求头，或在参数中传入 kn_id）');
        expect(body.description).toMatch(HAN);
      } finally {
        await mcp.close();
      }
    });
  });
});

describe('DEFAULT_LANGUAGE (e2e)', () => {
  const silentCaller = async (env: Record<string, string>) => {
    const app = await startTestApp({ KN_DIR: FIXTURES, AUTH_MODE: 'none', ...env });
    try {
      return await request(app.url)
        .post(`${PRIVATE}/kn/kn_search`)
        .set(INTERNAL_CALLER)
        .send({ query: '糖尿病' })
        .expect(400);
    } finally {
      await app.close();
    }
  };

  it('en-US unless set: a silent caller gets English throughout', async () => {
    const response = await silentCaller({});
    expect(response.headers['content-language']).toBe('en-US');
    expect(response.body.details).toBe('kn_id is required (configure X-Kn-ID header or pass kn_id in arguments)');
    expect(JSON.stringify(response.body)).not.toMatch(HAN);
  });

  it('zh-Hans when it says so: a silent caller gets Chinese throughout, details included', async () => {
    const response = await silentCaller({ DEFAULT_LANGUAGE: 'zh-Hans' });
    expect(response.headers['content-language']).toBe('zh-Hans');
    expect(response.body.details).toBe('kn_id 为必填项（请配置 X-Kn-ID 请求头，或在参数中传入 kn_id）');
    expect(response.body.description).toMatch(HAN);
  });
});
