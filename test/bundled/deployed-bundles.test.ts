import { describe, expect, it } from 'vitest';
import { me } from '../../shared/contract/auth';
import { api, signIn } from '../support/api';
import { companyWithEverything } from '../support/company-fixture';
import { readConversation } from '../support/sms';
import { listCalls, voiceToken } from '../support/voice';

/**
 * The smoke set over the deployed bundles (test/support/bundled-setup.ts): the paths every company
 * takes, each through its function's bundle as AWS runs it.
 */
describe('the deployed bundles', () => {
  it('sign up and in, connect Twilio and import a number, a text each way, a voice token and a call', async () => {
    // Sign-up (register, the mailed link), connecting the emulator's account, importing its number,
    // an inbound text and a reply with its status callbacks, an inbound call until it ended.
    const company = await companyWithEverything('Bundled Co');
    const { owner, conversationId } = company;

    const signedIn = await signIn({ email: owner.email, password: owner.password });
    expect(signedIn.user.id).toBe(owner.user.id);
    const profile = await api<{ user: { id: string } }>(me.path, { token: signedIn.tokens.accessToken });
    expect(profile.body.data.user.id).toBe(owner.user.id);

    const thread = (await readConversation(owner, conversationId)).body.data.conversation.messages;
    expect(thread.map((m) => [m.direction, m.body])).toEqual([
      ['INBOUND', 'Hello, is anyone there?'],
      ['OUTBOUND', 'Yes, how can we help?'],
    ]);
    expect(thread[1]?.status).toBe('DELIVERED');

    expect((await voiceToken(owner)).split('.')).toHaveLength(3);
    const [call] = (await listCalls(owner)).body.data.calls;
    expect(call?.direction).toBe('INBOUND');
  });
});
