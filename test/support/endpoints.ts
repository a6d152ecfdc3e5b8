import * as account from '../../shared/contract/endpoints/account';
import * as admin from '../../shared/contract/endpoints/admin';
import * as auth from '../../shared/contract/endpoints/auth';
import * as callControls from '../../shared/contract/endpoints/call-controls';
import * as calls from '../../shared/contract/endpoints/calls';
import * as channelHealth from '../../shared/contract/endpoints/channel-health';
import * as company from '../../shared/contract/endpoints/company';
import * as contacts from '../../shared/contract/endpoints/contacts';
import * as conversations from '../../shared/contract/endpoints/conversations';
import * as realtime from '../../shared/contract/endpoints/realtime';
import * as settings from '../../shared/contract/endpoints/settings';
import * as system from '../../shared/contract/endpoints/system';
import * as team from '../../shared/contract/endpoints/team';
import * as timeline from '../../shared/contract/endpoints/timeline';
import * as voice from '../../shared/contract/endpoints/voice';

/**
 * Every HTTP route's endpoint by its contract's name (shared/contract/endpoints/, whose names are
 * unique across modules): what the tests call routes by, with `callRoute` (api.ts). shared/contract/endpoints.test.ts checks
 * that it holds every endpoint file's endpoints.
 */
export const endpoints = {
  ...account,
  ...admin,
  ...auth,
  ...callControls,
  ...calls,
  ...channelHealth,
  ...company,
  ...contacts,
  ...conversations,
  ...realtime,
  ...settings,
  ...system,
  ...team,
  ...timeline,
  ...voice,
};
