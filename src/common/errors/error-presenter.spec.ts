import { Logger } from '@nestjs/common';
import type { I18nService } from 'nestjs-i18n';
import { testConfig } from '../../../test/support/unit/config';
import { inSpan, useInMemoryTracing } from '../../../test/support/unit/in-memory-tracing';
import { currentTraceId } from '../../tracing/trace-ids';
import { ErrorPresenter } from './error-presenter';

const i18n = { translate: (key: string) => key } as unknown as I18nService;

describe('ErrorPresenter support reference', () => {
  useInMemoryTracing();
  const presenter = new ErrorPresenter(i18n, testConfig().i18n);

  beforeAll(() => Logger.overrideLogger(false));

  it('answers an unexpected error with the request id in details, and no trace id while no span is active', () => {
    const presented = presenter.present(new Error('internal detail'), 'en-US', 'request-1');
    expect(presented.status).toBe(500);
    expect(presented.body.details).toEqual({ request_id: 'request-1' });
  });

  it('puts the trace id beside the request id while tracing is on, leaving the body shape as it was', () => {
    const { presented, traceId } = inSpan(() => ({
      presented: presenter.present(new Error('internal detail'), 'en-US', 'request-1'),
      traceId: currentTraceId(),
    }));
    expect(Object.keys(presented.body)).toEqual(['code', 'description', 'solution', 'link', 'details']);
    expect(presented.body.details).toEqual({ request_id: 'request-1', trace_id: traceId });
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(presented.body)).not.toContain('internal detail');
  });
});
