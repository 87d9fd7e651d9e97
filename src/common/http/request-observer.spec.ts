import express from 'express';
import { Writable } from 'node:stream';
import pino from 'pino';
import request from 'supertest';
import { MetricsService } from '../../metrics/metrics.service';
import { observeRequests } from './request-observer.middleware';

function setup(level = 'info') {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const metrics = new MetricsService({ processMetrics: false } as never);
  const app = express();
  app.use((req, _res, next) => {
    (req as express.Request & { id: string }).id = 'req-7';
    next();
  });
  app.use(observeRequests(metrics, pino({ level }, sink)));
  app.get('/items/:id', (_req, res) => res.json({ ok: true }));
  app.get('/broken', (_req, res) => res.status(500).json({}));
  app.get('/health/live', (_req, res) => res.json({ status: 'ok' }));
  return { app, lines, metrics };
}

describe('observeRequests', () => {
  it('writes one access line per request: request id, method, path, route, status and latency', async () => {
    const { app, lines } = setup();
    await request(app).get('/items/42?secret=x').expect(200);
    await request(app).get('/nowhere').expect(404);
    await request(app).get('/broken').expect(500);

    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        req: { id: 'req-7', method: 'GET', url: '/items/42' },
        res: { statusCode: 200 },
        responseTime: expect.any(Number) as unknown,
        route: '/items/:id',
        msg: 'request completed',
      }),
      expect.objectContaining({ level: 40, route: 'unmatched', res: { statusCode: 404 } }),
      expect.objectContaining({ level: 50, route: '/broken', msg: 'request errored' }),
    ]);
  });

  it('counts probes without logging them, and builds no line below the configured level', async () => {
    const quiet = setup();
    await request(quiet.app).get('/health/live').expect(200);
    expect(quiet.lines).toEqual([]);

    const warnOnly = setup('warn');
    await request(warnOnly.app).get('/items/1').expect(200);
    await request(warnOnly.app).get('/nowhere').expect(404);
    expect(warnOnly.lines.map((line) => line.res)).toEqual([{ statusCode: 404 }]);

    const metrics = await quiet.metrics.registry.getSingleMetricAsString(
      'agent_retrieval_http_request_duration_seconds',
    );
    expect(metrics).toContain(
      'agent_retrieval_http_request_duration_seconds_count{method="GET",route="/health/live",status_code="200"} 1',
    );
  });
});
