import { UNREAD_BADGE_MAX } from '@shared/constants';
import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { unreadBadge } from './unread-summary';
import { useDocumentTitle, useDocumentTitlePrefix } from './use-document-title';

describe('the unread count in the nav and the tab title', () => {
  it('shows the count, nothing for none, and 99+ above the badge maximum or at it when the server did not look at all', () => {
    expect(unreadBadge(undefined)).toBeNull();
    expect(unreadBadge({ count: 0, complete: true })).toBeNull();
    expect(unreadBadge({ count: 3, complete: true })).toBe('3');
    expect(unreadBadge({ count: UNREAD_BADGE_MAX, complete: true })).toBe('99');
    expect(unreadBadge({ count: UNREAD_BADGE_MAX, complete: false })).toBe('99+');
    expect(unreadBadge({ count: 40, complete: false })).toBe('40');
    expect(unreadBadge({ count: UNREAD_BADGE_MAX + 1, complete: true })).toBe('99+');
  });

  it("starts every page's title with the count while the shell says so, and drops it when it goes", () => {
    const page = renderHook(({ title }) => useDocumentTitle(title), { initialProps: { title: 'Conversations' } });
    expect(document.title).toBe('Conversations · Switchboard');
    const shell = renderHook(({ prefix }) => useDocumentTitlePrefix(prefix), { initialProps: { prefix: '(3) ' } });
    expect(document.title).toBe('(3) Conversations · Switchboard');
    page.rerender({ title: 'Contacts' });
    expect(document.title).toBe('(3) Contacts · Switchboard');
    shell.rerender({ prefix: '(99+) ' });
    expect(document.title).toBe('(99+) Contacts · Switchboard');
    shell.unmount();
    expect(document.title).toBe('Contacts · Switchboard');
  });
});
