import { describe, expect, it } from 'vitest';
import type { Contact } from '../../shared/contract/contacts';
import { type Account, callRoute, signUp, unchecked } from '../support/api';
import { endpoints } from '../support/endpoints';
import { openSocket } from '../support/realtime';
import { withChannel } from '../support/settings';
import { addTeamMember } from '../support/team';
import { textFromPhone } from '../support/twilio';

const create = (account: Account, body: unknown) =>
  callRoute(endpoints.createContact, { token: account.tokens.accessToken, body: unchecked(body) });

async function created(account: Account, body: Record<string, unknown>): Promise<Contact> {
  const res = await create(account, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.contact;
}

async function search(account: Account, text?: string): Promise<Contact[]> {
  const res = await callRoute(endpoints.listContacts, { query: { search: text }, token: account.tokens.accessToken });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.contacts;
}

const names = (contacts: Contact[]) => contacts.map((c) => c.name || c.phoneNumber);

describe('contacts', () => {
  it('creates a contact with the number in E.164, read in the company country', async () => {
    const owner = await signUp();
    const contact = await created(owner, {
      name: '  Ada Lovelace ',
      phoneNumber: '(415) 555-0101',
      email: 'Ada@Example.com',
      notes: 'Prefers texts',
    });
    expect(contact).toEqual({
      id: expect.any(String),
      name: 'Ada Lovelace',
      phoneNumber: '+14155550101',
      email: 'ada@example.com',
      notes: 'Prefers texts',
      callCount: 0,
      conversationCount: 0,
      lastContactAt: null,
      lastConversationId: null,
      createdAt: expect.any(String),
    });
    expect(await search(owner)).toEqual([contact]);
    // Only the number is required; an international one keeps its country.
    expect(await created(owner, { phoneNumber: '+44 20 7946 0958' })).toMatchObject({
      name: '',
      phoneNumber: '+442079460958',
      email: null,
      notes: null,
    });
  });

  it('refuses a contact without a valid number, e-mail or notes, storing nothing', async () => {
    const owner = await signUp();
    const cases: [unknown, string][] = [
      [{ name: 'No number' }, 'Phone number is required'],
      [{ phoneNumber: '   ' }, 'Phone number is required'],
      [{ phoneNumber: 'call me' }, 'Enter a valid phone number'],
      [{ phoneNumber: '555-01' }, 'Enter a valid phone number'],
      [{ phoneNumber: '(415) 555-0102', email: 'not an address' }, 'Enter a valid email address'],
      [{ phoneNumber: '(415) 555-0102', notes: 'x'.repeat(2_001) }, 'Notes must be at most 2,000 characters'],
      [{ phoneNumber: '(415) 555-0102', name: 'n'.repeat(101) }, 'Name must be at most 100 characters'],
    ];
    for (const [body, message] of cases) {
      const res = await create(owner, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    expect(await search(owner)).toEqual([]);
  });

  it('keeps one contact per number, whatever its notation, even for creates at the same moment', async () => {
    const owner = await signUp();
    await created(owner, { name: 'First', phoneNumber: '+14155550103' });
    const again = await create(owner, { name: 'Second', phoneNumber: '415.555.0103' });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('A contact with this phone number already exists.');

    const parallel = await Promise.all(
      Array.from({ length: 6 }, (_, i) => create(owner, { name: `Racer ${i}`, phoneNumber: '(415) 555-0104' })),
    );
    expect(parallel.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect((await search(owner, '0104')).length).toBe(1);

    // Another company may have the same number.
    expect((await create(await signUp(), { phoneNumber: '+14155550103' })).status).toBe(201);
  });

  it('finds contacts by name, e-mail and number in any notation, case-insensitively', async () => {
    const owner = await signUp();
    await created(owner, { name: 'Ada Lovelace', phoneNumber: '+14155550101', email: 'ada@analytical.example' });
    await created(owner, { name: 'Grace Hopper', phoneNumber: '+12025550143', email: 'grace@navy.example' });
    await created(owner, { name: 'José Núñez', phoneNumber: '+442079460958' });
    await created(owner, { phoneNumber: '+13125550199' });

    expect(names(await search(owner))).toEqual(['Ada Lovelace', 'Grace Hopper', 'José Núñez', '+13125550199']);
    const cases: [string, string[]][] = [
      ['ada', ['Ada Lovelace']],
      ['HOPPER', ['Grace Hopper']],
      ['grace hop', ['Grace Hopper']],
      ['jose', ['José Núñez']],
      ['navy.example', ['Grace Hopper']],
      ['ADA@ANALYTICAL', ['Ada Lovelace']],
      ['415 555', ['Ada Lovelace']],
      ['+1415', ['Ada Lovelace']],
      ['(415)', ['Ada Lovelace']],
      ['(202) 555-0143', ['Grace Hopper']],
      ['+1 202 555 0143', ['Grace Hopper']],
      ['020 7946 0958', ['José Núñez']],
      ['0199', ['+13125550199']],
      ['555', ['Ada Lovelace', 'Grace Hopper', '+13125550199']],
      ['nobody', []],
    ];
    for (const [text, expected] of cases) expect(names(await search(owner, text)), text).toEqual(expected);

    const res = await callRoute(endpoints.listContacts, { query: { search: 'x'.repeat(101) }, token: owner.tokens.accessToken });
    expect(res.status).toBe(400);
  });

  it('edits name, e-mail and notes, never the number, and search follows the new name', async () => {
    const owner = await signUp();
    const contact = await created(owner, { name: 'Old Name', phoneNumber: '+14155550105', email: 'old@example.test' });
    const put = (body: unknown) =>
      callRoute(endpoints.updateContact, { params: { id: contact.id }, token: owner.tokens.accessToken, body: unchecked(body) });

    const refused = await put({ name: 'X', phoneNumber: '+14155550106' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe('Phone number cannot be changed');

    const edited = await put({ name: 'New Name', email: '', notes: 'VIP' });
    expect(edited.status).toBe(200);
    expect(edited.body.data.contact).toMatchObject({
      name: 'New Name',
      email: null,
      notes: 'VIP',
      phoneNumber: '+14155550105',
    });
    expect(names(await search(owner, 'old'))).toEqual([]);
    expect(names(await search(owner, 'new'))).toEqual(['New Name']);
    expect((await put({ email: 'new@example.test' })).body.data.contact).toMatchObject({
      name: 'New Name',
      email: 'new@example.test',
    });
    expect(names(await search(owner, 'new@'))).toEqual(['New Name']);
  });

  it('shows the counts of texts, leads to the conversation, and after a delete keeps the conversation with the number', async () => {
    const owner = await signUp();
    const { channel } = await withChannel(owner);
    const phone = '+12025550177';
    const contact = await created(owner, { name: 'Texter', phoneNumber: phone });
    await textFromPhone({ from: phone, to: channel.identifier, body: 'Hello' });
    await textFromPhone({ from: phone, to: channel.identifier, body: 'Again' });

    const [listed] = await search(owner, 'texter');
    const list = await callRoute(endpoints.listConversations, { token: owner.tokens.accessToken });
    const conversation = list.body.data.conversations[0];
    expect(listed).toMatchObject({
      id: contact.id,
      conversationCount: 1,
      lastContactAt: expect.any(String),
      lastConversationId: conversation?.id,
    });

    const deleted = await callRoute(endpoints.deleteContact, { params: { id: contact.id }, token: owner.tokens.accessToken });
    expect(deleted.status).toBe(200);
    expect(await search(owner)).toEqual([]);
    const after = await callRoute(endpoints.getConversation, {
      params: { id: String(conversation?.id) },
      token: owner.tokens.accessToken,
    });
    expect(after.status).toBe(200);
    expect(after.body.data.conversation.contact).toMatchObject({ id: null, name: '', phoneNumber: phone });
    expect(after.body.data.conversation.messageCount).toBe(2);

    // The number may be added again, and a new text from it makes a fresh contact.
    await textFromPhone({ from: phone, to: channel.identifier, body: 'Back again' });
    const [fresh] = await search(owner, phone);
    expect(fresh).toMatchObject({ name: '', phoneNumber: phone, conversationCount: 1 });
    expect(fresh?.id).not.toBe(contact.id);
  });

  it('answers 404 for another company’s contact on every route', async () => {
    const owner = await signUp();
    const contact = await created(owner, { name: 'Mine', phoneNumber: '+14155550107' });
    const stranger = await signUp();
    const token = stranger.tokens.accessToken;
    const put = await callRoute(endpoints.updateContact, { params: { id: contact.id }, token, body: { name: 'Stolen' } });
    expect(put.status).toBe(404);
    expect(put.body.error.message).toBe('Contact not found');
    const del = await callRoute(endpoints.deleteContact, { params: { id: contact.id }, token });
    expect(del.status).toBe(404);
    expect(await search(stranger, 'mine')).toEqual([]);
    expect(await search(stranger)).toEqual([]);
    expect(await search(owner)).toMatchObject([{ id: contact.id, name: 'Mine' }]);
    expect((await callRoute(endpoints.deleteContact, { params: { id: 'nope' }, token: owner.tokens.accessToken })).status).toBe(
      404,
    );
  });

  it('is an event to the company when someone creates, renames or deletes a contact; another company hears nothing', async () => {
    const owner = await signUp();
    const colleague = await addTeamMember(owner, { name: 'Colleague' });
    const stranger = await signUp();
    const [theirs, outsider] = await Promise.all([openSocket(colleague), openSocket(stranger)]);
    const contact = await created(owner, { phoneNumber: '+14155550123' });
    // Without its counts, which are each reader's (docs/product.md: Who sees what).
    const shared = ({ callCount: _calls, conversationCount: _conversations, ...rest }: typeof contact) => rest;
    expect((await theirs.next('contact_changed')).data).toEqual({ contactId: contact.id, contact: shared(contact) });

    const renamed = await callRoute(endpoints.updateContact, {
      params: { id: contact.id },
      token: owner.tokens.accessToken,
      body: { name: 'Renamed Person' },
    });
    expect(renamed.status).toBe(200);
    const rename = await theirs.next('contact_changed');
    expect(rename.data).toEqual({ contactId: contact.id, contact: shared(renamed.body.data.contact) });
    expect(rename.data.contact).toMatchObject({ name: 'Renamed Person', phoneNumber: '+14155550123' });

    expect(
      (await callRoute(endpoints.deleteContact, { params: { id: contact.id }, token: owner.tokens.accessToken })).status,
    ).toBe(200);
    expect((await theirs.next('contact_changed')).data).toEqual({ contactId: contact.id, contact: null });
    await outsider.beat();
    expect(outsider.log.filter((e) => e.type === 'contact_changed')).toEqual([]);
    await Promise.all([theirs.close(), outsider.close()]);
  });
});
