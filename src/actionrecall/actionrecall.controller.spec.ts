import { ActionRecallController } from './actionrecall.controller';
import { ActionRecallService } from './actionrecall.service';

describe('ActionRecallController kn_id precedence', () => {
  const getActionInfo = jest.fn().mockResolvedValue({ headers: {}, _dynamic_tools: [] });
  const controller = new ActionRecallController({ getActionInfo } as unknown as ActionRecallService);
  const knIdOf = async (body: Record<string, unknown>, query?: string, header?: string) => {
    await controller.getActionInfo({ at_id: 'a', ...body }, query, header);
    return (getActionInfo.mock.calls.at(-1) as [{ kn_id: string }])[0].kn_id;
  };

  it('takes the body, then the query string, then X-Kn-ID', async () => {
    expect(await knIdOf({ kn_id: 'body' }, 'query', 'header')).toBe('body');
    expect(await knIdOf({ kn_id: '  ' }, 'query', 'header')).toBe('query');
    expect(await knIdOf({}, undefined, 'header')).toBe('header');
  });

  it('passes identities through unchanged', async () => {
    await controller.getActionInfo({ at_id: 'a', kn_id: 'k', _instance_identities: [{ id: 1 }] });
    expect(getActionInfo).toHaveBeenLastCalledWith({ at_id: 'a', kn_id: 'k', _instance_identities: [{ id: 1 }] });
  });
});
