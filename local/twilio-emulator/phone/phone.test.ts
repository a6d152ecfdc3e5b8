import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { quietLogger } from '../../log';
import { freePort } from '../../ports';
import { startTwilioEmulator, type TwilioEmulator } from '../server';
import { type Receiver, startReceiver } from '../test-receiver';
import type { PhoneMessage } from './phone-api';

const demo = { accountSid: `AC${'d'.repeat(32)}`, authToken: 'e'.repeat(32) };
const PHONE = '+14155550199';
const DEMO_MAIN = '+14155550101';

interface Conversation {
  phone: string;
  number: string;
  messages: PhoneMessage[];
}

describe('phone simulator', () => {
  let emulator: TwilioEmulator;
  let receiver: Receiver;

  beforeAll(async () => {
    emulator = await startTwilioEmulator({ port: await freePort(), demo, messageStepMs: 10, log: quietLogger });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await emulator.stop();
    await receiver.stop();
  });
  afterEach(() => fetch(`${emulator.url}/_emulator/reset`, { method: 'POST' }));

  const post = (path: string, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    fetch(`${emulator.url}${path}`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const textFromPhone = (from: string, to: string, body: string) => post('/_emulator/messages', { from, to, body });
  const reply = (to: string, body: string) =>
    post(
      `/2010-04-01/Accounts/${demo.accountSid}/Messages.json`,
      new URLSearchParams({ From: DEMO_MAIN, To: to, Body: body }).toString(),
      {
        authorization: `Basic ${Buffer.from(`${demo.accountSid}:${demo.authToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
    );
  const conversation = async (phone: string, number: string) => {
    const res = await fetch(`${emulator.url}/_emulator/phone/conversation?${new URLSearchParams({ phone, number })}`);
    return (await res.json()) as Conversation;
  };

  it('serves the page with a labelled number input, number select, message box, Send button and a message log', async () => {
    const res = await fetch(`${emulator.url}/phone`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await res.text();
    expect(html).toContain('<label for="phone">Your number</label>');
    expect(html).toMatch(/<input id="phone"[^>]*type="tel"/);
    expect(html).toContain('<label for="number">Switchboard number</label>');
    expect(html).toMatch(/<select id="number"/);
    expect(html).toContain('<label for="body">Message</label>');
    expect(html).toMatch(/<textarea id="body"[^>]*maxlength="1600"/);
    expect(html).toContain('<button type="submit" id="send">Send</button>');
    expect(html).toContain('<div id="messages-log" role="log" aria-label="Conversation"><ol id="messages"></ol></div>');
    // Nothing loaded from elsewhere.
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    const status = await (await fetch(`${emulator.url}/`)).text();
    expect(status).toContain('<a href="/phone">Phone simulator</a>');
  });

  it("lists every account's SMS numbers, the demo account first", async () => {
    const created = (await (await post('/_emulator/accounts', {})).json()) as { accountSid: string };
    const res = await fetch(`${emulator.url}/_emulator/phone/numbers`);
    const { numbers } = (await res.json()) as {
      numbers: { phoneNumber: string; accountSid: string; demo: boolean; friendlyName: string }[];
    };
    expect(numbers.map((n) => [n.accountSid, n.friendlyName])).toEqual([
      [demo.accountSid, 'Main line'],
      [demo.accountSid, 'SMS line'],
      [demo.accountSid, 'Legacy IVR'],
      [created.accountSid, 'Main line'],
      [created.accountSid, 'SMS line'],
      [created.accountSid, 'Legacy IVR'],
    ]);
    expect(numbers[0]).toMatchObject({ phoneNumber: DEMO_MAIN, demo: true });
  });

  it("shows the conversation of one phone and one number both ways, with statuses and the product's failed answer", async () => {
    const number = await fetch(
      `${emulator.url}/2010-04-01/Accounts/${demo.accountSid}/IncomingPhoneNumbers.json?PhoneNumber=${encodeURIComponent(DEMO_MAIN)}`,
      {
        headers: { authorization: `Basic ${Buffer.from(`${demo.accountSid}:${demo.authToken}`).toString('base64')}` },
      },
    );
    const {
      incoming_phone_numbers: [main],
    } = (await number.json()) as { incoming_phone_numbers: { sid: string }[] };
    receiver.answer('/forbidden', 403);
    await post(
      `/2010-04-01/Accounts/${demo.accountSid}/IncomingPhoneNumbers/${main?.sid}.json`,
      new URLSearchParams({ SmsUrl: `${receiver.base}/forbidden` }).toString(),
      {
        authorization: `Basic ${Buffer.from(`${demo.accountSid}:${demo.authToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
    );

    expect((await textFromPhone(PHONE, DEMO_MAIN, 'Hi, I need help')).status).toBe(201);
    expect((await reply(PHONE, 'How can we help?')).status).toBe(201);
    // Other phones and other numbers are other conversations.
    await textFromPhone('+14155550198', DEMO_MAIN, 'someone else');
    await textFromPhone(PHONE, '+14155550102', 'another number');

    await expect
      .poll(async () =>
        (await conversation(PHONE, DEMO_MAIN)).messages.map((m) => [m.direction, m.body, m.status, m.webhook?.status ?? null]),
      )
      .toEqual([
        ['inbound', 'Hi, I need help', 'received', 403],
        ['outbound-api', 'How can we help?', 'delivered', null],
      ]);
    const bad = await fetch(`${emulator.url}/_emulator/phone/conversation?phone=abc&number=${encodeURIComponent(DEMO_MAIN)}`);
    expect(bad.status).toBe(400);
  });

  it('streams the conversation, then every new or changed message, as Server-Sent Events', async () => {
    await textFromPhone(PHONE, DEMO_MAIN, 'before');
    const abort = new AbortController();
    const res = await fetch(
      `${emulator.url}/_emulator/phone/events?${new URLSearchParams({ phone: PHONE, number: DEMO_MAIN })}`,
      {
        signal: abort.signal,
      },
    );
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const events = readEvents(res);
    try {
      const first = await events.next();
      expect(first.event).toBe('conversation');
      expect((first.data as Conversation).messages.map((m) => m.body)).toEqual(['before']);

      await reply(PHONE, 'after');
      const statuses: string[] = [];
      while (statuses.at(-1) !== 'delivered') {
        const next = await events.next();
        const message = next.data as PhoneMessage;
        expect([next.event, message.body]).toEqual(['message', 'after']);
        statuses.push(message.status);
      }
      expect(statuses).toEqual(['queued', 'sending', 'sent', 'delivered']);
    } finally {
      abort.abort();
    }
  });
});

/** Reads `event:`/`data:` blocks from a Server-Sent Events response, one at a time. */
function readEvents(res: Response) {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next(): Promise<{ event: string; data: unknown }> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) return { event, data: JSON.parse(data) };
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the event stream ended');
        buffer += decoder.decode(value, { stream: true });
      }
    },
  };
}
