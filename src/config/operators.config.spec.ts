import { ConfigError, loadConfig } from './index';

describe('operators config', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({}).operators).toEqual({
      backend: 'embedded',
      mcpServersFile: undefined,
      mcpCallTimeoutMs: 30000,
      mcpConnectTimeoutMs: 15000,
      mcpToolsCacheTtlMs: 60000,
      mcpReconnectBackoffMs: 1000,
      toolboxAllowedHosts: ['127.0.0.1', 'localhost'],
      toolboxTimeoutMs: 30000,
      actionProxyBaseUrl: 'http://agent-retrieval:30779',
    });
  });

  it('parses lists and trims the proxy base URL', () => {
    const operators = loadConfig({
      TOOLBOX_ALLOWED_HOSTS: ' API.internal , ,10.0.0.5',
      ACTION_PROXY_BASE_URL: 'http://ar:8080/',
    }).operators;
    expect(operators.toolboxAllowedHosts).toEqual(['api.internal', '10.0.0.5']);
    expect(operators.actionProxyBaseUrl).toBe('http://ar:8080');
  });

  it('names the variable when a value is invalid', () => {
    expect(() => loadConfig({ OPERATOR_BACKEND: 'aoi' })).toThrow(ConfigError);
    expect(() => loadConfig({ MCP_CALL_TIMEOUT_MS: '5' })).toThrow(/MCP_CALL_TIMEOUT_MS/);
  });
});
