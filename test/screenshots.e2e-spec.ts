/**
 * Swagger UI and the Grafana dashboard in a real browser: Debian's Chromium driven by playwright-core
 * (.ci/run installs it; this spec skips, saying so, where it is missing). Screenshots go to
 * artifacts/screenshots/ for CI to keep. Grafana itself cannot run here, so the dashboard's panels are
 * laid out on their grid as a static page (test/support/dashboard-page.ts).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { chromium, Browser } from 'playwright-core';
import { dashboardHtml } from './support/dashboard-page';
import { startTestApp, TestApp } from './support/app';

const ROOT = path.join(__dirname, '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = path.join(ROOT, 'artifacts', 'screenshots');
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const PRIVATE = '/api/agent-retrieval/in/v1';
const OPEN = /^\/(health|metrics|\.well-known|console)(\/|$)/;

const available = existsSync(CHROMIUM);
if (!available) {
  console.warn(`screenshots skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
}

(available ? describe : describe.skip)('Swagger UI and the Grafana dashboard in headless Chromium (e2e)', () => {
  let browser: Browser;
  let app: TestApp;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
    app = await startTestApp({ AUTH_MODE: 'static', AUTH_STATIC_TOKENS: 'dev-secret=alice:user' });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('Swagger UI renders every operation, each public one with its lock', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${app.url}/api/agent-retrieval/docs`);
    await page.locator('.opblock').first().waitFor();
    const operations = await page.locator('.opblock').evaluateAll((blocks) =>
      blocks.map((block) => ({
        path: block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '',
        method: block.querySelector('.opblock-summary-method')?.textContent ?? '',
        locked: block.querySelector('.authorization__btn') !== null,
      })),
    );
    const document = (await (await fetch(`${app.url}/api/agent-retrieval/docs-json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = Object.values(document.paths).reduce((sum, item) => sum + Object.keys(item).length, 0);
    expect(operations).toHaveLength(documented);
    const isPublic = (route: string): boolean => !route.startsWith(PRIVATE) && !OPEN.test(route);
    const wrong = operations
      .filter((operation) => operation.locked !== isPublic(operation.path))
      .map((operation) => `${operation.method} ${operation.path} locked=${operation.locked}`);
    expect(wrong).toEqual([]);
    expect(operations.filter((operation) => operation.locked).length).toBeGreaterThan(20);
    await page.locator('.authorize').first().waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'swagger-ui.png'), fullPage: true });
    await page.close();
  });

  it('the Grafana dashboard renders every panel on its grid', async () => {
    const dashboard = JSON.parse(readFileSync(path.join(ROOT, 'k8s', 'grafana-dashboard.json'), 'utf8'));
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    await page.setContent(dashboardHtml(dashboard));
    const titles = await page
      .locator('.panel header')
      .evaluateAll((headers) => headers.map((header) => header.firstChild?.textContent ?? ''));
    const expected = (dashboard.panels as { type: string; title: string }[])
      .filter((panel) => panel.type !== 'row')
      .map((panel) => panel.title);
    expect(titles).toEqual(expected);
    const boxes = await page
      .locator('.panel')
      .evaluateAll((panels) => panels.map((panel) => panel.getBoundingClientRect().width));
    expect(boxes.every((width) => width > 100)).toBe(true);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'grafana-dashboard.png'), fullPage: true });
    await page.close();
  });
});
