import { ontologyQueryError } from './ontology-query-error';
import { summarizeUpstreamBody } from './upstream-summary';

describe('ontology-query error mapping', () => {
  it.each([
    [404, 'agentRetrieval.NotFound.OntologyQueryNotFound', 404],
    [400, 'agentRetrieval.BadRequest.OntologyQueryRejected', 400],
    [422, 'agentRetrieval.BadRequest.OntologyQueryRejected', 400],
    [403, 'agentRetrieval.Forbidden.OntologyQueryForbidden', 403],
    [401, 'agentRetrieval.Forbidden.OntologyQueryForbidden', 403],
    [429, 'agentRetrieval.BadGateway.OntologyQueryFailed', 502],
    [500, 'agentRetrieval.BadGateway.OntologyQueryFailed', 502],
    [503, 'agentRetrieval.BadGateway.OntologyQueryFailed', 502],
  ])('maps HTTP %i to %s (%i)', (status, code, ourStatus) => {
    const error = ontologyQueryError(status, undefined);
    expect(error.definition.code).toBe(code);
    expect(error.status).toBe(ourStatus);
    expect(error.details).toBe(`ontology-query answered HTTP ${status}`);
  });

  it('summarises the upstream code and message instead of echoing the body', () => {
    const error = ontologyQueryError(500, {
      error_code: 'OQ.Internal',
      description: 'boom',
      error_details: { sql: 'SELECT *' },
    });
    expect(error.details).toBe('ontology-query answered HTTP 500: OQ.Internal: boom');
    expect(String(error.details)).not.toContain('SELECT');
  });

  it('caps a long message and strips control characters', () => {
    const summary = summarizeUpstreamBody({ message: `${'x'.repeat(500)}\u0000\r\n` })!;
    expect(summary.length).toBe(201);
    expect(summary.endsWith('…')).toBe(true);
    expect(summarizeUpstreamBody({ message: 'a\u0007b' })).toBe('a b');
    expect(summarizeUpstreamBody(['not', 'an', 'object'])).toBeUndefined();
    expect(summarizeUpstreamBody({ other: 1 })).toBeUndefined();
  });
});
