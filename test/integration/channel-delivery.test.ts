import { describe, expect, it } from 'vitest';
import { callRoute } from '../support/api';
import { endpoints } from '../support/endpoints';
import { conversationWith, newPhone, type SmsLine, sendText, smsLine, socketsClosedAfterEach } from '../support/sms';

const listen = socketsClosedAfterEach();

const healthOf = async (line: SmsLine) => {
  const res = await callRoute(endpoints.getChannelHealth, {
    params: { id: line.channel.id },
    token: line.account.tokens.accessToken,
  });
  expect(res.status).toBe(200);
  return res.body.data.health;
};

describe("a channel's delivery summary", () => {
  it('counts the texts sent by how they ended, each error code in words with what to do about it', async () => {
    const line = await smsLine();
    const socket = await listen(line);
    // A handset that gets the text; one that is off (30003, through Twilio's callback); a number
    // that cannot receive texts, which Twilio refuses at once (21612).
    const reached = await conversationWith(line, socket, newPhone());
    const switchedOff = await conversationWith(line, socket, '+15005550006');
    const landline = await conversationWith(line, socket, '+15005550009');

    const settled = async (conversationId: string, status: string) => {
      const sent = await sendText(line.account, conversationId, 'Your repair is ready.');
      expect(sent.status).toBe(201);
      const id = sent.body.data.message.id;
      if (sent.body.data.message.status === status) return;
      await socket.next('message_status_updated', (e) => e.data.message.id === id && e.data.message.status === status);
    };
    await settled(reached, 'DELIVERED');
    await settled(switchedOff, 'UNDELIVERED');
    await settled(landline, 'FAILED');

    const { delivery } = await healthOf(line);
    const today = new Date().toISOString().slice(0, 10);
    expect(delivery).toEqual({
      since: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/),
      sent: 3,
      delivered: 1,
      failed: 1,
      undelivered: 1,
      errors: [
        {
          code: 21612,
          count: 1,
          message: 'Texts cannot be sent to this number from this number (it cannot receive SMS, or the route is not supported).',
          advice: 'Call the contact instead, or ask for a number that can receive texts.',
        },
        {
          code: 30003,
          count: 1,
          message: 'Unreachable destination handset: the phone is off or out of coverage.',
          advice: 'Try again later; if it keeps failing, confirm the number with the contact.',
        },
      ],
    });
    // Seven days, today included.
    expect((Date.parse(`${today}T00:00:00Z`) - Date.parse(delivery.since)) / 86_400_000).toBe(6);
  });

  it("counts only the channel's own texts: another company's channel starts at nothing", async () => {
    const line = await smsLine();
    const socket = await listen(line);
    const reached = await conversationWith(line, socket, newPhone());
    const sent = await sendText(line.account, reached, 'Hello');
    expect(sent.status).toBe(201);

    const other = await smsLine();
    expect((await healthOf(other)).delivery).toMatchObject({ sent: 0, delivered: 0, failed: 0, undelivered: 0, errors: [] });
    expect((await healthOf(line)).delivery.sent).toBe(1);
  });
});
