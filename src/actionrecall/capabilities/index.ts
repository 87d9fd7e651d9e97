import { CHECK_ACTION } from './check-action.capability';
import { EXECUTE_ACTION } from './execute-action.capability';
import { GET_ACTION_INFO } from './get-action-info.capability';

/** execute_action comes right after get_action_info; its dry run follows. */
export const ACTION_CAPABILITIES = [GET_ACTION_INFO, EXECUTE_ACTION, CHECK_ACTION];
