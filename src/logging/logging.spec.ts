import { Writable } from 'node:stream';
import { runWithRequestContext } from '../common/context/request-context';
import { createRootLogger } from './logging.module';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createRootLogger({ logLevel: 'info', logPretty: false }, sink) };
}

describe('root logger', () => {
  it('names the request a line was written for, and nothing outside a request', () => {
    const { lines, logger } = capture();
    logger.info('starting');
    runWithRequestContext({ requestId: 'req-42', language: 'en-US' }, () => logger.info({ tool: 'kn_search' }, 'step'));

    expect(lines[0]).not.toHaveProperty('req');
    expect(lines[1]).toMatchObject({ req: { id: 'req-42' }, tool: 'kn_search', msg: 'step' });
  });

  it('keeps the fields a line names itself and redacts credentials', () => {
    const { lines, logger } = capture();
    runWithRequestContext({ requestId: 'req-42', language: 'en-US' }, () =>
      logger.info({ req: { id: 'req-42', method: 'GET' }, upstream: { token: 'secret-token' } }, 'done'),
    );

    expect(lines[0]).toMatchObject({ req: { id: 'req-42', method: 'GET' }, upstream: { token: '[redacted]' } });
    expect(JSON.stringify(lines)).not.toContain('secret-token');
  });
});
