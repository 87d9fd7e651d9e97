/**
 * The runnable command blocks of the README and of every docs/*.md, run as a reader would paste them, so
 * drift fails CI. A block is runnable when the line before its ```bash fence is `<!-- runnable -->`
 * (docs/development.md "Runnable documentation blocks"): it needs only a service started like `npm start` (demo networks, no LLM, docker,
 * kubectl or peers). Each runs under `bash -e -o pipefail` against the built service on a free port
 * (`127.0.0.1:30779` and `localhost:30779` rewritten) and must exit 0; its curls use `-f`, so an HTTP
 * error status fails the block.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { childEnv } from './support/child-env';
import { ServiceProcess, startServiceProcess } from './support/service-process';
import { until } from './support/until';

const ROOT = path.join(__dirname, '..');
const MARKER = '<!-- runnable -->';

/** The README and the topic guides, by path from the repository root. */
const DOCUMENTS: { file: string; text: string }[] = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
].map((file) => ({ file, text: readFileSync(path.join(ROOT, file), 'utf8') }));

interface Block {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  language: string;
  code: string;
  runnable: boolean;
}

function codeBlocks(file: string, markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const fence = /^```(\w*)\s*$/.exec(lines[index]);
    if (!fence) continue;
    const end = lines.findIndex((line, at) => at > index && line.startsWith('```'));
    blocks.push({
      file,
      line: index + 1,
      language: fence[1],
      code: lines.slice(index + 1, end).join('\n'),
      runnable: lines[index - 1]?.trim() === MARKER,
    });
    index = end;
  }
  return blocks;
}

/** A block's shell commands, continuation lines joined and comments dropped. */
const commands = (code: string): string[] =>
  code
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));

const blocks = DOCUMENTS.flatMap(({ file, text }) => codeBlocks(file, text));
const runnable = blocks.filter((block) => block.runnable);

function runBlock(code: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', code], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    child.stdout.on('data', (data: Buffer) => output.push(data.toString('utf8')));
    child.stderr.on('data', (data: Buffer) => output.push(data.toString('utf8')));
    child.once('close', (status) => resolve({ status, output: output.join('') }));
  });
}

describe('README and docs/*.md command blocks', () => {
  it('marks only bash blocks, a good number of them, and every curl in them fails on an HTTP error', () => {
    expect(DOCUMENTS.find(({ file }) => file === 'README.md')?.text).toContain(MARKER);
    const misplaced = DOCUMENTS.flatMap(({ file, text }) =>
      text
        .split('\n')
        .map((line, index, lines) => ({
          line: index + 2,
          marker: line.trim() === MARKER,
          next: lines[index + 1] ?? '',
        }))
        .filter(({ marker, next }) => marker && next.trim() !== '```bash')
        .map(({ line }) => `${file}:${line}`),
    );
    expect(misplaced).toEqual([]);
    expect(runnable.filter((block) => block.file === 'README.md').length).toBeGreaterThanOrEqual(3);
    expect(runnable.length).toBeGreaterThanOrEqual(10);
    const lenient = runnable.flatMap((block) =>
      commands(block.code)
        .filter((command) => /\bcurl\b/.test(command) && !/\s(-[a-zA-Z]*f[a-zA-Z]*|--fail)(\s|$)/.test(command))
        .map((command) => `${block.file}:${block.line}: ${command.slice(0, 80)}`),
    );
    expect(lenient).toEqual([]);
  });

  it('every chat example names the knowledge network its tools read (kn_id)', () => {
    const curls = blocks
      .filter((block) => block.language === 'bash')
      .flatMap((block) => commands(block.code).map((command) => ({ line: `${block.file}:${block.line}`, command })))
      .filter(({ command }) => command.includes('chat/completions') && command.includes(' -d '));
    const calls = blocks
      .filter((block) => block.language === 'js')
      .flatMap((block) =>
        block.code
          .split('chat.completions.create(')
          .slice(1)
          .map((call) => ({ line: `${block.file}:${block.line}`, command: call.slice(0, call.indexOf('})')) })),
      );
    expect(curls.length + calls.length).toBeGreaterThanOrEqual(3);
    const without = [...curls, ...calls].filter(({ command }) => !/"?kn_id"?\s*:/.test(command));
    expect(without.map(({ line, command }) => `line ${line}: ${command.slice(0, 80)}`)).toEqual([]);
  });

  it('names real drugs of the clinic network in its drug_id examples', () => {
    const drugs = readFileSync(path.join(ROOT, 'examples', 'networks', 'clinic', 'data', 'drug.csv'), 'utf8')
      .split('\n')
      .slice(1)
      .map((row) => row.split(',')[0]);
    const examples = DOCUMENTS.flatMap(({ text }) =>
      [...text.matchAll(/"drug_id"\s*:\s*"([^"]+)"/g)].map((match) => match[1]),
    );
    expect(examples.length).toBeGreaterThan(0);
    expect(examples.filter((id) => !drugs.includes(id))).toEqual([]);
  });

  describe('against a started service (built dist, demo networks)', () => {
    let service: ServiceProcess;
    let env: NodeJS.ProcessEnv;

    beforeAll(async () => {
      service = await startServiceProcess({
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'readme-data-')),
        CODE_ROOT: 'examples/code',
        LOG_LEVEL: 'warn',
      });
      await until('the service is ready', async () => (await fetch(`${service.url}/health/ready`)).ok, 30_000);
      env = childEnv({
        HOME: process.env.HOME,
        PATH: `${path.join(ROOT, 'node_modules', '.bin')}:${process.env.PATH}`,
      });
    });

    afterAll(async () => {
      await service?.stop();
    });

    it.each(runnable.map((block) => [`${block.file}:${block.line}`, block]))(
      'the block at %s exits 0',
      async (_line, block) => {
        const port = new URL(service.url).port;
        const code = (block as Block).code.replace(/\b(127\.0\.0\.1|localhost):30779\b/g, `$1:${port}`);
        const { status, output } = await runBlock(code, env);
        expect({ status, output: status === 0 ? '' : output.slice(-2000) }).toEqual({ status: 0, output: '' });
      },
    );
  });
});
