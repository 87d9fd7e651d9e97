import { ConfigError, loadConfig } from './index';

describe('loadConfig', () => {
  it('starts with no variables at all, on loopback without auth', () => {
    const config = loadConfig({});
    expect(config.server).toMatchObject({ host: '127.0.0.1', port: 30779, bodyLimit: '4mb' });
    expect(config.auth.mode).toBe('none');
    expect(config.kn).toMatchObject({ backend: 'embedded', dir: 'examples/networks', strict: false });
  });

  it('names the variable and the problem in one line', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(
      'Invalid configuration: PORT must be an integer between 0 and 65535 (got "eighty")',
    );
  });

  it('reports every invalid variable, one line each', () => {
    const load = () => loadConfig({ PORT: '70000', AUTH_MODE: 'magic', LOG_PRETTY: 'maybe' });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(
      expect.objectContaining({
        problems: [
          expect.stringMatching(/PORT must be at most 65535/),
          expect.stringMatching(/LOG_PRETTY must be true or false/),
          expect.stringMatching(/AUTH_MODE must be one of: none, introspect, static/),
        ],
      }),
    );
  });

  it('refuses AUTH_MODE=none on a non-loopback bind unless explicitly allowed', () => {
    expect(() => loadConfig({ HOST: '0.0.0.0' })).toThrow(/AUTH_MODE=none is refused on HOST=0.0.0.0/);
    expect(loadConfig({ HOST: '0.0.0.0', AUTH_ALLOW_INSECURE: 'true' }).auth.allowInsecure).toBe(true);
  });

  it('requires INTROSPECT_URL for AUTH_MODE=introspect', () => {
    expect(() => loadConfig({ AUTH_MODE: 'introspect' })).toThrow(/INTROSPECT_URL is required/);
    const config = loadConfig({ AUTH_MODE: 'introspect', INTROSPECT_URL: 'http://hydra:4445/admin/oauth2/introspect' });
    expect(config.auth.introspectUrl).toBe('http://hydra:4445/admin/oauth2/introspect');
  });

  it('parses static tokens and per-upstream timeouts with a shared default', () => {
    const config = loadConfig({
      AUTH_MODE: 'static',
      AUTH_STATIC_TOKENS: 'secret-1=alice:user, secret-2=robot:app',
      UPSTREAM_TIMEOUT_MS: '2000',
      BKN_BACKEND_TIMEOUT_MS: '500',
      ONTOLOGY_QUERY_URL: 'http://oq:13018/',
    });
    expect(config.auth.staticTokens).toEqual([
      { token: 'secret-1', accountId: 'alice', accountType: 'user' },
      { token: 'secret-2', accountId: 'robot', accountType: 'app' },
    ]);
    expect(config.upstream.bknBackend.timeoutMs).toBe(500);
    expect(config.upstream.ontologyQuery).toEqual({ baseUrl: 'http://oq:13018', timeoutMs: 2000 });
  });

  it('reads BODY_LIMIT in bytes with the units body-parser uses (1kb = 1024 bytes)', () => {
    expect(loadConfig({}).server.bodyLimitBytes).toBe(4 * 1024 * 1024);
    expect(loadConfig({ BODY_LIMIT: '512KB' }).server).toMatchObject({ bodyLimit: '512kb', bodyLimitBytes: 524288 });
    expect(loadConfig({ BODY_LIMIT: '1048576b' }).server.bodyLimitBytes).toBe(1048576);
  });

  it('gives the HTTP server header and request read deadlines, defaulting to 10 s and 30 s', () => {
    expect(loadConfig({}).server).toMatchObject({ headersTimeoutMs: 10000, requestTimeoutMs: 30000 });
    const config = loadConfig({ HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '1500' });
    expect(config.server).toMatchObject({ headersTimeoutMs: 1000, requestTimeoutMs: 1500 });
  });

  it('refuses read deadlines that are not integers in range, naming the variable', () => {
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: 'soon' })).toThrow(
      'Invalid configuration: HEADERS_TIMEOUT_MS must be an integer between 1000 and 600000 (got "soon")',
    );
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '999' })).toThrow(
      'Invalid configuration: REQUEST_TIMEOUT_MS must be at least 1000 (got "999")',
    );
  });

  it('requires REQUEST_TIMEOUT_MS to exceed HEADERS_TIMEOUT_MS', () => {
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '20000' })).toThrow(
      'Invalid configuration: REQUEST_TIMEOUT_MS must be greater than HEADERS_TIMEOUT_MS (20000) (got "20000")',
    );
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '40000' })).toThrow(
      /^Invalid configuration: REQUEST_TIMEOUT_MS must be greater than HEADERS_TIMEOUT_MS \(40000\)$/,
    );
  });

  it('never echoes a URL’s credentials in a configuration error', () => {
    let message = '';
    try {
      loadConfig({ REDIS_URL: 'http://admin:s3cret@cache:6379' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^Invalid configuration: REDIS_URL .*\(got "http:\/\/\*\*\*@cache:6379"\)$/);
    expect(message).not.toContain('s3cret');
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', LOG_LEVEL: '' }).server).toMatchObject({ port: 30779, logLevel: 'info' });
  });

  it('reads the chat output token bound and passthrough field names, refusing a list that is not names', () => {
    expect(loadConfig({}).chat.loop).toMatchObject({ maxOutputTokens: 16384, passthroughFields: [] });
    const chat = loadConfig({
      CHAT_MAX_OUTPUT_TOKENS: '4096',
      CHAT_PASSTHROUGH_FIELDS: ' reasoning_effort, store ',
    }).chat;
    expect(chat.loop).toMatchObject({ maxOutputTokens: 4096, passthroughFields: ['reasoning_effort', 'store'] });
    expect(() => loadConfig({ CHAT_PASSTHROUGH_FIELDS: 'store;drop table' })).toThrow(
      'Invalid configuration: CHAT_PASSTHROUGH_FIELDS must be field names (letters, digits, _ or -) separated by commas',
    );
    expect(() => loadConfig({ CHAT_MAX_OUTPUT_TOKENS: '0' })).toThrow('CHAT_MAX_OUTPUT_TOKENS must be at least 1');
  });
});
