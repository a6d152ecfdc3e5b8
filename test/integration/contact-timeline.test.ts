import { describe, expect, it } from 'vitest';
import { TIMELINE_PAGE_SIZE, type TimelineItem } from '../../shared/contract/timeline';
import { type Account, callRoute, signUp } from '../support/api';
import { companyWithEverything } from '../support/company-fixture';
import { endpoints } from '../support/endpoints';
import { textIn } from '../support/sms';
import { addNote } from '../support/team-inbox';
import { callFromPhone, hangUpCall } from '../support/twilio';
import { listCalls } from '../support/voice';

/**
 * The contact timeline (docs/product.md: Contact timeline): a contact's texts, notes, calls and
 * voicemails in one list, newest first, paged by cursor; another company's contact is not found.
 */

const timeline = (who: Account, contactId: string, cursor?: string) =>
  callRoute(endpoints.contactTimeline, { params: { id: contactId }, query: { cursor }, token: who.tokens.accessToken });

/** What a row says: its kind and its text, or its call's status and voicemail length. */
const row = (item: TimelineItem) =>
  item.kind === 'TEXT' || item.kind === 'NOTE'
    ? `${item.kind} ${item.message.direction} ${item.message.body}`
    : `${item.kind} ${item.call.direction} ${item.call.callStatus}${item.call.voicemail ? ` ${item.call.voicemail.durationSeconds}s` : ''}`;

describe('contact timeline', () => {
  it("shows the contact's texts, notes, calls and voicemail newest first, pages by cursor, and is another company's 404", async () => {
    const company = await companyWithEverything('Timeline Traders');
    const { owner, line, contact, conversationId } = company;

    // After the fixture's text, reply and voicemail: a call the caller hangs up without leaving a message
    // (no member's phone is ready, so it rings nobody), a note, a text.
    const call = await callFromPhone({ from: contact.phoneNumber, to: line.channel.identifier });
    await hangUpCall(call.sid);
    await expect
      .poll(async () => (await listCalls(owner)).body.data.calls.find((c) => c.providerCallId === call.sid)?.callStatus, {
        timeout: 15_000,
      })
      .toBe('NO_ANSWER');
    expect((await addNote(owner, conversationId, 'Called back twice, no luck')).status).toBe(201);
    expect((await textIn(line, { from: contact.phoneNumber, body: 'Sorry, I was driving' })).status).toBe(200);

    const first = await timeline(owner, contact.id);
    expect(first.status).toBe(200);
    expect(first.body.data.items.map(row)).toEqual([
      'TEXT INBOUND Sorry, I was driving',
      'NOTE OUTBOUND Called back twice, no luck',
      'CALL INBOUND NO_ANSWER',
      'VOICEMAIL INBOUND NO_ANSWER 2s',
      'TEXT OUTBOUND Yes, how can we help?',
      'TEXT INBOUND Hello, is anyone there?',
    ]);
    expect(first.body.data.nextCursor).toBeNull();
    const times = first.body.data.items.map((item) => item.createdAt);
    expect(times).toEqual([...times].sort().reverse());

    // More than a page: the newest page, then the older items by its cursor, none twice, none lost.
    for (let i = 1; i <= TIMELINE_PAGE_SIZE; i++) {
      expect((await textIn(line, { from: contact.phoneNumber, body: `Follow-up ${i}` })).status).toBe(200);
    }
    const newest = await timeline(owner, contact.id);
    expect(newest.body.data.items).toHaveLength(TIMELINE_PAGE_SIZE);
    expect(newest.body.data.items[0] && row(newest.body.data.items[0])).toBe(`TEXT INBOUND Follow-up ${TIMELINE_PAGE_SIZE}`);
    const cursor = newest.body.data.nextCursor;
    expect(cursor).toEqual(expect.any(String));
    const older = await timeline(owner, contact.id, cursor ?? undefined);
    expect(older.status).toBe(200);
    expect(older.body.data.nextCursor).toBeNull();
    expect([...newest.body.data.items, ...older.body.data.items].map(row)).toEqual([
      ...Array.from({ length: TIMELINE_PAGE_SIZE }, (_, i) => `TEXT INBOUND Follow-up ${TIMELINE_PAGE_SIZE - i}`),
      ...first.body.data.items.map(row),
    ]);

    // A cursor that is not one is refused with a message; another company's member finds no such contact.
    const invalid = await timeline(owner, contact.id, 'not-a-cursor');
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ success: false, error: { message: 'cursor is not a cursor of this timeline' } });
    const stranger = await signUp({ companyName: 'Elsewhere Ltd' });
    const probed = await timeline(stranger, contact.id);
    expect(probed.status).toBe(404);
    expect(probed.body).toMatchObject({ success: false, error: { message: 'Contact not found' } });
  });

  it('is empty for a contact nobody has texted or called yet', async () => {
    const owner = await signUp({ companyName: 'Quiet Books' });
    const created = await callRoute(endpoints.createContact, {
      token: owner.tokens.accessToken,
      body: { name: 'Nobody Yet', phoneNumber: '+12025550199' },
    });
    expect(created.status).toBe(201);
    const answer = await timeline(owner, created.body.data.contact.id);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ items: [], nextCursor: null });
  });
});
