import { describe, expect, it } from 'vitest';
import { demo, useTwilioEmulator } from '../test-harness';
import type { PhoneCall, PhoneMessage } from './phone-api';

const PHONE = '+14155550199';
const DEMO_MAIN = '+14155550101';

interface Conversation {
  phone: string;
  number: string;
  messages: PhoneMessage[];
}

describe('phone simulator', () => {
  const harness = useTwilioEmulator();

  const post = (path: string, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    fetch(`${harness.emulator.url}${path}`, {
      method: 'POST',
      headers,
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
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
    const res = await fetch(`${harness.emulator.url}/_emulator/phone/conversation?${new URLSearchParams({ phone, number })}`);
    return (await res.json()) as Conversation;
  };

  it('serves the page with a labelled number input, number select, message box, Send button and a message log', async () => {
    const res = await fetch(`${harness.emulator.url}/phone`);
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
    // Calls: a Call button, Answer and Hang up, a keypad group of the twelve keys, and a status region.
    expect(html).toContain('<button type="button" id="call">Call</button>');
    expect(html).toContain('<button type="button" id="answer" hidden>Answer</button>');
    expect(html).toContain('<button type="button" id="hangup" class="danger" hidden>Hang up</button>');
    expect(html).toContain('<p id="call-status" role="status">No call.</p>');
    const keypad = /<div class="keypad" id="keypad" role="group" aria-label="Keypad">([\s\S]*?)<\/div>/.exec(html)?.[1] ?? '';
    expect([...keypad.matchAll(/data-digit="(.)"/g)].map((m) => m[1]).join('')).toBe('123456789*0#');
    // Nothing loaded from elsewhere.
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    const status = await (await fetch(`${harness.emulator.url}/`)).text();
    expect(status).toContain('<a href="/phone">Phone simulator</a>');
  });

  it("lists every account's numbers that take texts or calls, the demo account first", async () => {
    const created = (await (await post('/_emulator/accounts', {})).json()) as { accountSid: string };
    const res = await fetch(`${harness.emulator.url}/_emulator/phone/numbers`);
    const { numbers } = (await res.json()) as {
      numbers: { phoneNumber: string; accountSid: string; demo: boolean; friendlyName: string; sms: boolean; voice: boolean }[];
    };
    expect(numbers.map((n) => [n.accountSid, n.friendlyName, n.sms, n.voice])).toEqual([
      [demo.accountSid, 'Main line', true, true],
      [demo.accountSid, 'SMS line', true, false],
      [demo.accountSid, 'Voice line', false, true],
      [demo.accountSid, 'Legacy IVR', true, true],
      [created.accountSid, 'Main line', true, true],
      [created.accountSid, 'SMS line', true, false],
      [created.accountSid, 'Voice line', false, true],
      [created.accountSid, 'Legacy IVR', true, true],
    ]);
    expect(numbers[0]).toMatchObject({ phoneNumber: DEMO_MAIN, demo: true });
  });

  it("shows the conversation of one phone and one number both ways, with statuses and the product's failed answer", async () => {
    const number = await fetch(
      `${harness.emulator.url}/2010-04-01/Accounts/${demo.accountSid}/IncomingPhoneNumbers.json?PhoneNumber=${encodeURIComponent(DEMO_MAIN)}`,
      {
        headers: { authorization: `Basic ${Buffer.from(`${demo.accountSid}:${demo.authToken}`).toString('base64')}` },
      },
    );
    const {
      incoming_phone_numbers: [main],
    } = (await number.json()) as { incoming_phone_numbers: { sid: string }[] };
    harness.receiver.answer('/forbidden', 403);
    await post(
      `/2010-04-01/Accounts/${demo.accountSid}/IncomingPhoneNumbers/${main?.sid}.json`,
      new URLSearchParams({ SmsUrl: `${harness.receiver.base}/forbidden` }).toString(),
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
    const bad = await fetch(
      `${harness.emulator.url}/_emulator/phone/conversation?phone=abc&number=${encodeURIComponent(DEMO_MAIN)}`,
    );
    expect(bad.status).toBe(400);
  });

  it('streams the conversation, then every new or changed message, as Server-Sent Events', async () => {
    await textFromPhone(PHONE, DEMO_MAIN, 'before');
    const abort = new AbortController();
    const res = await fetch(
      `${harness.emulator.url}/_emulator/phone/events?${new URLSearchParams({ phone: PHONE, number: DEMO_MAIN })}`,
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

  it('streams the calls of the phone too: its call to the number ringing, answered and ended, and a call ringing the phone', async () => {
    const voiceUrl = async (url: string) => {
      const list = await fetch(
        `${harness.emulator.url}/2010-04-01/Accounts/${demo.accountSid}/IncomingPhoneNumbers.json?PhoneNumber=${encodeURIComponent(DEMO_MAIN)}`,
        { headers: { authorization: `Basic ${Buffer.from(`${demo.accountSid}:${demo.authToken}`).toString('base64')}` } },
      );
      const {
        incoming_phone_numbers: [main],
      } = (await list.json()) as { incoming_phone_numbers: { sid: string }[] };
      await post(
        `/2010-04-01/Accounts/${demo.accountSid}/IncomingPhoneNumbers/${main?.sid}.json`,
        new URLSearchParams({ VoiceUrl: url }).toString(),
        {
          authorization: `Basic ${Buffer.from(`${demo.accountSid}:${demo.authToken}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
      );
    };
    harness.receiver.twiml('/voice', '<Response><Say>Connecting you</Say><Dial><Client>agent</Client></Dial></Response>');
    await voiceUrl(`${harness.receiver.base}/voice`);
    const abort = new AbortController();
    const res = await fetch(
      `${harness.emulator.url}/_emulator/phone/events?${new URLSearchParams({ phone: PHONE, number: DEMO_MAIN })}`,
      {
        signal: abort.signal,
      },
    );
    const events = readEvents(res);
    try {
      const first = await events.next();
      expect((first.data as { calls: PhoneCall[] }).calls).toEqual([]);
      const placed = await post('/_emulator/calls', { from: PHONE, to: DEMO_MAIN });
      const { sid } = (await placed.json()) as { sid: string };
      const seen: string[] = [];
      const follow = async (until: string) => {
        while (seen.at(-1) !== until) {
          const next = await events.next();
          const call = next.data as PhoneCall;
          if (next.event === 'call' && call.sid === sid) {
            expect(call).toMatchObject({ kind: 'outgoing', party: DEMO_MAIN });
            seen.push(call.status);
          }
        }
      };
      await follow('in-progress');
      await post(`/_emulator/calls/${sid}/hangup`, {});
      await follow('completed');
      expect(seen[0]).toBe('ringing');

      // The product's <Dial><Number> to the phone rings it: an incoming call on the same stream.
      harness.receiver.twiml('/voice', `<Response><Dial><Number>${PHONE}</Number></Dial></Response>`);
      await post('/_emulator/calls', { from: '+14155550177', to: DEMO_MAIN });
      for (;;) {
        const next = await events.next();
        const call = next.data as PhoneCall;
        if (next.event === 'call' && call.kind === 'incoming' && call.status === 'ringing') {
          expect(call.party).toBe('+14155550177');
          break;
        }
      }
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
