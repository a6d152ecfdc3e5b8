import { describe, expect, it } from 'vitest';
import { listContacts, updateContact } from './endpoints/contacts';
import { getConversation, listConversations, retryMessage, unreadConversations } from './endpoints/conversations';
import * as team from './endpoints/team';
import { allows, fillPath, isPathOf, isWellEncodedPath, matchPath } from './route';

/** A contact's path with the segment written as given, unencoded: how a client may send a malformed one. */
const contactPath = (segment: string) => updateContact.path.replace('{id}', segment);

describe('allows', () => {
  it("answers by the route's roles: every signed-in role when it names none", () => {
    expect(['OWNER', 'ADMIN', 'AGENT'].map((r) => allows(team.updateUserRole, r as 'OWNER'))).toEqual([true, false, false]);
    expect(['OWNER', 'ADMIN', 'AGENT'].map((r) => allows(team.createInvitation, r as 'OWNER'))).toEqual([true, true, false]);
    expect(['OWNER', 'ADMIN', 'AGENT'].map((r) => allows(team.listInvitations, r as 'OWNER'))).toEqual([true, true, true]);
    expect(allows(team.listInvitations, undefined)).toBe(false);
  });
});

describe('fillPath', () => {
  it('fills each {param}, URL-encoded', () => {
    expect(fillPath(retryMessage.path, { id: 'a/b c', messageId: 'm?1' })).toBe(
      retryMessage.path.replace('{id}', 'a%2Fb%20c').replace('{messageId}', 'm%3F1'),
    );
    expect(fillPath(listContacts.path, {})).toBe(listContacts.path);
  });

  it('refuses a path whose parameter has no value', () => {
    expect(() => fillPath(updateContact.path, {} as { id: string })).toThrow('no value for {id}');
  });
});

describe('matchPath', () => {
  it('matches literal segments and captures each {param}, decoded: what fillPath wrote, back', () => {
    expect(matchPath(updateContact.path, contactPath('abc%20d'))).toEqual({ id: 'abc d' });
    const params = { id: 'a/b c', messageId: 'm?1' };
    expect(matchPath(retryMessage.path, fillPath(retryMessage.path, params))).toEqual(params);
    expect(matchPath(listContacts.path, listContacts.path)).toEqual({});
    // Any one segment, a literal one too: the gateway tries the routes without {param}s first.
    expect(matchPath(getConversation.path, unreadConversations.path)).toEqual({ id: 'unread' });
  });

  it('refuses an empty {param}, more segments, or another path', () => {
    expect(matchPath(updateContact.path, contactPath(''))).toBeUndefined();
    expect(matchPath(updateContact.path, contactPath('a/b'))).toBeUndefined();
    expect(matchPath(listContacts.path, listConversations.path)).toBeUndefined();
  });

  it('matches nothing, and throws nothing, for a {param} that is not valid URL encoding', () => {
    expect(matchPath(updateContact.path, contactPath('%'))).toBeUndefined();
    expect(matchPath(updateContact.path, contactPath('%E0%A4%A'))).toBeUndefined();
    expect(isWellEncodedPath(contactPath('%E0%A4%A'))).toBe(false);
    expect(isWellEncodedPath(contactPath('a%20b'))).toBe(true);
  });
});

describe('isPathOf', () => {
  const { path } = retryMessage;
  const url = fillPath(path, { id: 'c1', messageId: 'm1' });
  it('matches a URL of the path, with or without its query, any value of a param not given', () => {
    expect(isPathOf(path, url)).toBe(true);
    expect(isPathOf(path, `http://127.0.0.1:3000${url}?x=1`)).toBe(true);
    expect(isPathOf(path, url, { id: 'c1' })).toBe(true);
    expect(isPathOf(path, fillPath(path, { id: 'a/b', messageId: 'm' }), { id: 'a/b' })).toBe(true);
  });
  it('refuses another path, another value, or more segments', () => {
    expect(isPathOf(path, url, { id: 'c2' })).toBe(false);
    expect(isPathOf(path, fillPath(getConversation.path, { id: 'c1' }))).toBe(false);
    expect(isPathOf(path, `${url}/more`)).toBe(false);
    expect(isPathOf(listConversations.path, unreadConversations.path)).toBe(false);
  });
});
