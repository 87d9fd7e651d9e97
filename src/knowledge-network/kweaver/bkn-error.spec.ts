import { AppException, PassThroughException } from '../../common/errors/app.exception';
import { bknError } from './bkn-error';

describe('bkn-backend error mapping', () => {
  it('passes a BKN error body through with BKN status (contract case 20)', () => {
    const error = bknError(
      404,
      {
        error_code: 'BknBackend.KnowledgeNetwork.NotFound',
        description: 'knowledge network not found',
        solution: 'check kn_id',
        error_link: 'https://example.com/bkn-error',
        error_details: { kn_id: 'kn-001' },
      },
      '/api/bkn-backend/in/v1/knowledge-networks/kn-001',
    );
    expect(error).toBeInstanceOf(PassThroughException);
    const passed = error as PassThroughException;
    expect(passed.status).toBe(404);
    expect(JSON.stringify(passed.body)).toBe(
      '{"code":"BknBackend.KnowledgeNetwork.NotFound","description":"knowledge network not found","solution":"check kn_id","link":"https://example.com/bkn-error","details":{"kn_id":"kn-001"}}',
    );
  });

  it('turns a 404 without a body into Public.NotFound naming the path, not the host', () => {
    const error = bknError(
      404,
      undefined,
      '/api/bkn-backend/in/v1/knowledge-networks/kn-9?include_detail=true&mode=export',
    );
    expect(error).toBeInstanceOf(AppException);
    expect((error as AppException).definition.code).toBe('Public.NotFound');
    expect((error as AppException).details).toBe(
      '[BknBackendAccess] request not found, [/api/bkn-backend/in/v1/knowledge-networks/kn-9?include_detail=true&mode=export]',
    );
  });

  it('turns any other failure into a 502 with a short summary', () => {
    const error = bknError(
      500,
      { message: 'db down\nat stack line', internal: 'secret-host:5432' },
      '/x',
    ) as AppException;
    expect(error.definition.code).toBe('agentRetrieval.BadGateway.BknBackendFailed');
    expect(error.status).toBe(502);
    expect(error.details).toBe('bkn-backend answered HTTP 500: db down at stack line');
    expect(String(error.details)).not.toContain('secret-host');
  });

  it('fills missing text fields of a BKN body with empty strings and keeps a non-error status out', () => {
    const passed = bknError(400, { error_code: 'Bkn.Bad' }, '/x') as PassThroughException;
    expect(passed.body).toEqual({ code: 'Bkn.Bad', description: '', solution: '', link: '' });
    expect(bknError(304, { error_code: 'Bkn.Odd' }, '/x')).toBeInstanceOf(AppException);
  });
});
