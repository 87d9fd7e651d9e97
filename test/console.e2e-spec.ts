/**
 * The web console at /console, driven in headless Chromium (playwright-core with Debian's chromium): sign
 * in with a static token, open clinic, search 糖尿病, open a patient, expand its subgraph two hops (the
 * drawn nodes and edges counted against the API's own answer), dry-run 开具处方 and see its conditions;
 * an account restricted by the access policy sees only its networks and tools; no console error, no
 * request outside the service's origin, the CSP on every console response. Screenshots go to
 * artifacts/screenshots/. Without Chromium the browser part is skipped and says so.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { BrowserContext, chromium, Page } from 'playwright-core';
import request from 'supertest';
import { startTestApp, TestApp } from './support/app';
import { LlmStandin } from './support/llm-standin';

const CHROMIUM = '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);
const SCREENSHOTS = path.join(__dirname, '..', 'artifacts', 'screenshots');
const PUBLIC = '/api/agent-retrieval/v1';
const POLICY = {
  agent: { networks: ['clinic'], allow: ['@read_only'], deny: [], auto: ['@read_only'] },
  user: { networks: ['*'], allow: ['*'], deny: [], auto: ['@read_only'] },
};
const HOP_LIMIT = 10;

if (!HAS_CHROMIUM) {
  process.stderr.write(
    `console e2e: the browser tests are skipped: no Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run installs it)\n`,
  );
}
const withBrowser = HAS_CHROMIUM ? describe : describe.skip;

interface Relation {
  id: string;
  source_object_type_id: string;
  target_object_type_id: string;
}
interface InstanceRef {
  object_type_id: string;
  unique_identities: Record<string, unknown>;
}
interface Found {
  nodes: Set<string>;
  edges: Set<string>;
  objects: Map<string, InstanceRef>;
}

describe('web console (e2e)', () => {
  const model = new LlmStandin();
  let app: TestApp;
  const as = (token: string) => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    const llmUrl = await model.start();
    app = await startTestApp({
      AUTH_MODE: 'static',
      AUTH_STATIC_TOKENS: 'tok-user=user-1:user,tok-agent=agent-1:agent,tok-ops=ops-1:ops',
      ACCESS_POLICY: JSON.stringify(POLICY),
      AUDIT_ADMIN_ACCOUNT_TYPES: 'ops',
      LLM_BASE_URL: llmUrl,
      WORKSPACE_ROOT: mkdtempSync(path.join(tmpdir(), 'console-ws-')),
    });
  });

  afterAll(async () => {
    await app.close();
    await model.stop();
  });

  describe('served by the service', () => {
    it('serves the page and its hashed assets with the CSP and the right cache headers', async () => {
      const page = await request(app.url).get('/console').expect(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
      expect(page.headers['content-security-policy']).toMatch(/connect-src 'self'/);
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.text).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
      expect(page.text).not.toMatch(/https?:\/\//);
      const assets = [...page.text.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((match) => match[1]);
      expect(assets.length).toBeGreaterThanOrEqual(2);
      for (const asset of assets) {
        const answer = await request(app.url).get(asset).expect(200);
        expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(answer.headers['content-security-policy']).toMatch(/default-src 'none'/);
      }
    });

    it('answers 404 for a file it did not build, whatever the name', async () => {
      for (const name of ['nope.js', '..%2F..%2Fpackage.json', '.env', '%2e%2e%2fmain.js']) {
        const answer = await request(app.url).get(`/console/assets/${name}`);
        expect({ name, status: answer.status }).toEqual({ name, status: 404 });
      }
    });
  });

  describe('the capabilities it added', () => {
    const patient = { patient_id: 'P00205' };

    it('check_action reports every condition, the arguments and the confirmation, and runs nothing', async () => {
      const answer = await request(app.url)
        .post(`${PUBLIC}/kn/check_action`)
        .set(as('tok-user'))
        .send({ kn_id: 'clinic', at_id: 'create_prescription', _instance_identity: patient })
        .expect(200);
      expect(answer.body).toMatchObject({
        at_id: 'create_prescription',
        enabled: true,
        requires_confirmation: true,
        would_run: false,
        argument_errors: expect.arrayContaining(['drug_id is required']),
        conditions: [
          {
            kind: 'pre',
            condition: 'patient.relation:patient_diagnosed_with exist',
            holds: true,
            message: '患者须有明确诊断后才能开具处方',
          },
        ],
      });
      expect(answer.body.arguments).toMatchObject({ patient_id: 'P00205', clinic_code: 'HZ-CLINIC-001' });
      expect(answer.body).not.toHaveProperty('result');
    });

    it('recent_audit shows an account its own lines; an admin account type sees every account', async () => {
      await request(app.url).get(`${PUBLIC}/kn/networks`).set(as('tok-agent')).expect(200);
      await request(app.url).get(`${PUBLIC}/kn/networks`).set(as('tok-user')).expect(200);
      const own = await request(app.url).get(`${PUBLIC}/audit/recent`).set(as('tok-agent')).expect(200);
      expect(own.body.scope).toBe('own');
      expect(own.body.lines.length).toBeGreaterThan(0);
      expect(new Set(own.body.lines.map((line: { account_id: string }) => line.account_id))).toEqual(
        new Set(['agent-1']),
      );
      expect(JSON.stringify(own.body)).not.toContain('arguments');
      const all = await request(app.url).get(`${PUBLIC}/audit/recent`).set(as('tok-ops')).expect(200);
      expect(all.body.scope).toBe('all');
      const accounts = new Set(all.body.lines.map((line: { account_id: string }) => line.account_id));
      expect([...accounts]).toEqual(expect.arrayContaining(['agent-1', 'user-1']));
      const one = await request(app.url).get(`${PUBLIC}/audit/recent?limit=1`).set(as('tok-ops')).expect(200);
      expect(one.body.lines).toHaveLength(1);
      for (const limit of ['0', '1001', 'many']) {
        const refused = await request(app.url).get(`${PUBLIC}/audit/recent?limit=${limit}`).set(as('tok-ops'));
        expect({ limit, status: refused.status }).toEqual({ limit, status: 400 });
      }
      await request(app.url).get(`${PUBLIC}/audit/recent`).expect(401);
    });
  });

  withBrowser('in headless Chromium', () => {
    let context: BrowserContext;
    let profile: string;
    const consoleErrors: string[] = [];
    const foreignRequests: string[] = [];
    const documents: { url: string; csp?: string }[] = [];

    beforeAll(async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      profile = mkdtempSync(path.join(tmpdir(), 'console-chromium-'));
      context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
        viewport: { width: 1280, height: 900 },
      });
      const origin = new URL(app.url).origin;
      context.on('request', (sent) => {
        if (new URL(sent.url()).origin !== origin) foreignRequests.push(sent.url());
      });
      context.on('response', (answer) => {
        if (answer.request().resourceType() === 'document') {
          documents.push({ url: answer.url(), csp: answer.headers()['content-security-policy'] });
        }
      });
    });

    afterAll(async () => {
      await context?.close();
      if (profile) rmSync(profile, { recursive: true, force: true });
    });

    afterEach(() => {
      expect(consoleErrors).toEqual([]);
      expect(foreignRequests).toEqual([]);
    });

    async function signIn(token: string): Promise<Page> {
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      page.on('pageerror', (error) => consoleErrors.push(error.message));
      await page.goto(`${app.url}/console`);
      await page.fill('#token', token);
      await page.click('form.login button');
      await page.waitForSelector('#account');
      return page;
    }

    const shot = (page: Page, name: string, fullPage = false) =>
      page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage });

    /** One hop from an instance, as the API answers it: a path per relation type touching its object type. */
    async function hop(relations: Relation[], from: InstanceRef) {
      const touching = relations.filter(
        (relation) =>
          relation.source_object_type_id === from.object_type_id ||
          relation.target_object_type_id === from.object_type_id,
      );
      const condition = {
        operation: 'and',
        sub_conditions: Object.entries(from.unique_identities).map(([field, value]) => ({
          field,
          operation: '==',
          value,
          value_from: 'const',
        })),
      };
      const paths = touching.map((relation) => ({
        object_types: [
          { id: from.object_type_id, condition, limit: 1 },
          {
            id:
              relation.source_object_type_id === from.object_type_id
                ? relation.target_object_type_id
                : relation.source_object_type_id,
            limit: HOP_LIMIT,
          },
        ],
        relation_types: [{ relation_type_id: relation.id }],
      }));
      const answer = await request(app.url)
        .post(`${PUBLIC}/kn/query_instance_subgraph`)
        .set(as('tok-user'))
        .send({ kn_id: 'clinic', relation_type_paths: paths })
        .expect(200);
      return answer.body.entries as {
        objects: Record<string, { id: string; object_type_id: string; unique_identities: Record<string, unknown> }>;
        relation_paths: {
          relations: { relation_type_id: string; source_object_id: string; target_object_id: string }[];
        }[];
      }[];
    }

    /** The subgraph two hops around an instance, computed from the API alone. */
    async function twoHops(otId: string, identity: Record<string, unknown>): Promise<Found> {
      const detail = await request(app.url)
        .post('/v1/tools/get_kn_detail/call')
        .set(as('tok-user'))
        .send({ arguments: { kn_id: 'clinic', response_format: 'json' } })
        .expect(200);
      const relations = (JSON.parse(detail.body.content as string) as { relation_types: Relation[] }).relation_types;
      const found: Found = { nodes: new Set(), edges: new Set(), objects: new Map() };
      const add = (entries: Awaited<ReturnType<typeof hop>>) => {
        for (const entry of entries) {
          for (const object of Object.values(entry.objects)) {
            found.nodes.add(object.id);
            found.objects.set(object.id, object);
          }
          for (const relation of entry.relation_paths.flatMap((relationPath) => relationPath.relations)) {
            found.edges.add(`${relation.relation_type_id}|${relation.source_object_id}|${relation.target_object_id}`);
          }
        }
      };
      add(await hop(relations, { object_type_id: otId, unique_identities: identity }));
      const firstHop = [...found.objects.entries()].filter(
        ([, object]) =>
          !(object.object_type_id === otId && JSON.stringify(object.unique_identities) === JSON.stringify(identity)),
      );
      for (const [, object] of firstHop) add(await hop(relations, object));
      return found;
    }

    const counts = async (page: Page) => {
      await page.waitForSelector('#graph-counts[data-busy="false"]');
      return {
        nodes: Number(await page.getAttribute('#graph-counts', 'data-nodes')),
        edges: Number(await page.getAttribute('#graph-counts', 'data-edges')),
      };
    };

    it('signs in, searches clinic, opens a patient, draws two hops and dry-runs 开具处方', async () => {
      const page = await signIn('tok-user');
      await page.waitForSelector('#networks a[data-kn="clinic"]');
      await shot(page, '01-networks');
      await page.click('#networks a[data-kn="clinic"]');
      await page.waitForSelector('#network-title');
      await page.fill('#search', '糖尿病');
      await page.click('form.row button[type="submit"]');
      await page.waitForSelector('#instance-hits a[data-ot="patient"]');
      expect(await page.locator('#search-results .why').count()).toBeGreaterThan(0);
      await shot(page, '02-search');

      const patientLink = page.locator('#instance-hits a[data-ot="patient"]').first();
      const target = decodeURIComponent(String(await patientLink.getAttribute('href')));
      const identity = JSON.parse(target.slice(target.lastIndexOf('/') + 1)) as Record<string, unknown>;
      await patientLink.click();
      await page.waitForSelector('#instance-properties');
      expect(await page.textContent('#instance-properties')).toContain(String(identity.patient_id));

      const expected = await twoHops('patient', identity);
      const oneHop = await counts(page);
      expect(oneHop.nodes).toBeGreaterThan(1);
      await page.click('#expand-all');
      await page.waitForSelector('#graph-counts[data-busy="true"]', { state: 'detached' }).catch(() => undefined);
      const drawn = await counts(page);
      expect(drawn).toEqual({ nodes: expected.nodes.size, edges: expected.edges.size });
      expect(drawn.nodes).toBeGreaterThan(oneHop.nodes);
      await page.locator('.graph').scrollIntoViewIfNeeded();
      await shot(page, '03-subgraph');

      const prescribe = page.locator('[data-action="create_prescription"]');
      await prescribe.locator('.dry-run-button').click();
      await prescribe.locator('.conditions li').first().waitFor();
      const conditions = await prescribe.locator('.conditions').textContent();
      expect(conditions).toContain('patient.relation:patient_diagnosed_with exist');
      expect(await prescribe.textContent()).toContain('drug_id is required');
      await prescribe.scrollIntoViewIfNeeded();
      await shot(page, '04-dry-run');
      await page.setViewportSize({ width: 1280, height: 2200 });
      await page.evaluate('window.scrollTo(0, 0)');
      await shot(page, 'console-instance');

      // The action requires approval: Execute stays disabled until the user approves, then it runs.
      await prescribe
        .locator('textarea')
        .fill(JSON.stringify({ drug_id: 'DRG001', dosage_instruction: '口服，每次0.5g，每日2次', days_supply: 7 }));
      expect(await prescribe.locator('button.danger').isDisabled()).toBe(true);
      await prescribe.locator('.approve input').check();
      await prescribe.locator('button.danger').click();
      await prescribe.locator('pre.json', { hasText: '"outcome"' }).waitFor();
      expect(await prescribe.locator('pre.json').last().textContent()).toContain('"outcome": "ok"');

      await page.click('#language');
      await page.waitForSelector('text=知识网络');
      await page.close();
      for (const document of documents)
        expect(document.csp).toMatch(/script-src 'self'; style-src 'self'; connect-src 'self'/);
      expect(documents.length).toBeGreaterThan(0);
    });

    it('shows an account restricted by the policy only its networks and its tools', async () => {
      const page = await signIn('tok-agent');
      await page.waitForSelector('#networks a[data-kn]');
      const networks = await page
        .locator('#networks a[data-kn]')
        .evaluateAll((links) => links.map((link) => link.getAttribute('data-kn')));
      expect(networks).toEqual(['clinic']);
      await page.click('nav a[href="#/tools"]');
      await page.waitForSelector('#tools [data-tool]');
      const shown = await page
        .locator('#tools [data-tool]')
        .evaluateAll((items) => items.map((item) => item.getAttribute('data-tool')));
      const listed = await request(app.url).get('/v1/tools').set(as('tok-agent')).expect(200);
      expect(shown).toEqual((listed.body.data as { function: { name: string } }[]).map((tool) => tool.function.name));
      expect(shown).not.toContain('execute_action');
      expect(shown).toContain('check_action');
      await shot(page, '05-restricted-tools');
      await page.close();
    });

    it('the operator view shows health, index state, CKB state and the caller’s own audit lines', async () => {
      const page = await signIn('tok-agent');
      await page.click('nav a[href="#/operator"]');
      await page.waitForSelector('#audit tr');
      expect(await page.textContent('#index-state')).toContain('clinic');
      expect(await page.textContent('#index-state')).not.toContain('k8s_ops');
      expect(await page.textContent('#health')).toContain('knowledge_network');
      const accounts = await page
        .locator('#audit tr td:nth-child(2)')
        .evaluateAll((cells) => [...new Set(cells.map((cell) => cell.textContent))]);
      expect(accounts).toEqual(['agent-1']);
      expect(await page.getAttribute('a[href="/metrics"]', 'href')).toBe('/metrics');
      await shot(page, '06-operator', true);
      await page.close();
    });

    it('the chat playground shows each tool call, its arguments and its result as they stream', async () => {
      model.use((_body, turn) =>
        turn === 1
          ? { tool_calls: [{ name: 'kn_search', arguments: { kn_id: 'clinic', query: '糖尿病' } }] }
          : { content: '找到了糖尿病相关的患者。' },
      );
      const page = await signIn('tok-user');
      await page.click('nav a[href="#/chat"]');
      await page.fill('#chat-input', '糖尿病患者有哪些？');
      await page.click('form.row button[type="submit"]');
      await page.waitForSelector('#transcript li.assistant');
      const transcript = await page.textContent('#transcript');
      expect(transcript).toContain('kn_search');
      const call = page.locator('#transcript li.tool_call');
      expect(await call.count()).toBe(1);
      expect(JSON.parse(String(await call.locator('pre').textContent()))).toEqual({ kn_id: 'clinic', query: '糖尿病' });
      const result = page.locator('#transcript li.tool_result');
      expect(await result.count()).toBe(1);
      expect(await result.textContent()).toContain('kn_search (ok)');
      expect(await result.textContent()).toContain('糖尿病');
      expect(await page.textContent('#transcript li.assistant')).toBe('assistant 找到了糖尿病相关的患者。');
      await shot(page, '07-chat', true);
      await page.close();
    });
  });
});
