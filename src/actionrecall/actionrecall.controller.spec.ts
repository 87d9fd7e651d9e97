import { ActionExecutionService } from './action-execution.service';
import { ActionRecallController } from './actionrecall.controller';
import { ActionRecallService } from './actionrecall.service';

describe('ActionRecallController', () => {
  const getActionInfo = jest.fn().mockResolvedValue({ headers: {}, _dynamic_tools: [] });
  const execute = jest.fn().mockResolvedValue({ outcome: 'ok' });
  const controller = new ActionRecallController(
    { getActionInfo } as unknown as ActionRecallService,
    { execute } as unknown as ActionExecutionService,
  );

  it('passes identities and the resolved kn_id through unchanged', async () => {
    await controller.getActionInfo({ at_id: 'a', kn_id: ' k ', _instance_identities: [{ id: 1 }] }, 'k');
    expect(getActionInfo).toHaveBeenLastCalledWith({ at_id: 'a', kn_id: 'k', _instance_identities: [{ id: 1 }] });
  });

  it('passes an execution through with the resolved kn_id', async () => {
    const body = { at_id: 'a', _instance_identity: { id: 1 }, arguments: { x: 1 }, confirm: true };
    await controller.executeAction(body, 'k');
    expect(execute).toHaveBeenLastCalledWith({ ...body, kn_id: 'k' });
  });
});
