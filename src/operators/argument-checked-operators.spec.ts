import { mockPort } from '../../test/support/unit/mocks';
import { AppException } from '../common/errors/app.exception';
import { ArgumentCheckedOperators } from './argument-checked-operators';
import { OperatorErrors } from './operator.errors';
import { OperatorPort } from './operator.port';

const QTY_TOOL = {
  name: 'reserve',
  description: '',
  inputSchema: { type: 'object', properties: { qty: { type: 'integer' } }, required: ['qty'] },
};

describe('ArgumentCheckedOperators', () => {
  const build = () => {
    const inner = mockPort(OperatorPort, {
      kind: 'embedded',
      getMcpToolDetail: () => Promise.resolve(QTY_TOOL),
      callMcpTool: () => Promise.resolve({ content: [{ type: 'text', text: 'ok' }] }),
    });
    return { inner, operators: new ArgumentCheckedOperators(inner) };
  };

  it('refuses arguments the inputSchema forbids with a 400 naming the field, without calling the tool', async () => {
    const { inner, operators } = build();
    const failure = await operators.callMcpTool('shop', 'reserve', { qty: 'abc' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppException);
    expect((failure as AppException).status).toBe(400);
    expect((failure as AppException).definition.code).toBe('agentRetrieval.BadRequest.InvalidToolArguments');
    expect((failure as AppException).details).toEqual(['qty must be integer']);
    expect(inner.callMcpTool).not.toHaveBeenCalled();
  });

  it('calls the tool with valid arguments unchanged', async () => {
    const { inner, operators } = build();
    await expect(operators.callMcpTool('shop', 'reserve', { qty: 3 })).resolves.toEqual({
      content: [{ type: 'text', text: 'ok' }],
    });
    expect(inner.callMcpTool).toHaveBeenCalledWith('shop', 'reserve', { qty: 3 });
  });

  it('passes an unknown tool through as the adapter answers it', async () => {
    const { inner, operators } = build();
    const missing = new AppException(OperatorErrors.McpToolNotFound, 'no tool');
    inner.getMcpToolDetail.mockRejectedValueOnce(missing);
    await expect(operators.callMcpTool('shop', 'gone', {})).rejects.toBe(missing);
    expect(inner.callMcpTool).not.toHaveBeenCalled();
  });
});
