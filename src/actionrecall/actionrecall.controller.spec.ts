import { ActionRecallController } from './actionrecall.controller';
import { ActionRecallService } from './actionrecall.service';

describe('ActionRecallController', () => {
  const getActionInfo = jest.fn().mockResolvedValue({ headers: {}, _dynamic_tools: [] });
  const controller = new ActionRecallController({ getActionInfo } as unknown as ActionRecallService);

  it('passes identities and the resolved kn_id through unchanged', async () => {
    await controller.getActionInfo({ at_id: 'a', kn_id: ' k ', _instance_identities: [{ id: 1 }] }, 'k');
    expect(getActionInfo).toHaveBeenLastCalledWith({ at_id: 'a', kn_id: 'k', _instance_identities: [{ id: 1 }] });
  });
});
