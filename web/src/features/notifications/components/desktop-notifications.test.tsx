import type { Conversation, Message } from '@shared/contract/conversations';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { usePublishRingingCall } from '@/lib/ringing-call';
import { push } from '@/test-realtime';
import { renderWithProviders, signInAs } from '@/test-utils';
import type { DesktopNotice, Notifier, NotifierPermission } from '../device/notifier';
import { DesktopNotifications } from './desktop-notifications';

/** Realtime events come from `push` instead of a socket (as in the softphone's tests). */
vi.mock('@/lib/realtime/realtime', () => import('@/test-realtime'));

/** A stand-in for the browser: its permission, whether the tab is hidden, what it showed and focused. */
function fakeNotifier(permission: NotifierPermission, answer: NotifierPermission = 'granted') {
  const state = { permission, hidden: true, shown: [] as DesktopNotice[], closed: [] as string[], focused: 0, asked: 0 };
  const notifier: Notifier = {
    permission: () => state.permission,
    requestPermission: async () => {
      state.asked += 1;
      state.permission = answer;
      return answer;
    },
    show: (notice) => state.shown.push(notice),
    close: (tag) => state.closed.push(tag),
    isHidden: () => state.hidden,
    focus: () => {
      state.focused += 1;
    },
  };
  return { notifier, state };
}

const conversation = {
  id: 'cv-1',
  contact: { id: 'ct-1', name: '', phoneNumber: '+14155550201' },
} as Omit<Conversation, 'unreadCount'>;
const text = (over: Partial<Message> = {}) =>
  ({
    id: 'm-1',
    conversationId: 'cv-1',
    type: 'SMS',
    direction: 'INBOUND',
    body: 'Is my order on its way?\nThanks',
    ...over,
  }) as Message;

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}
const render = (notifier: Notifier) =>
  renderWithProviders(
    <Routes>
      <Route
        path="*"
        element={
          <>
            <DesktopNotifications notifier={notifier} />
            <Where />
          </>
        }
      />
    </Routes>,
  );

beforeEach(() => {
  signInAs('AGENT');
});

describe('DesktopNotifications', () => {
  it('asks the browser only when the person opts in, then says notifications are on', async () => {
    const { notifier, state } = fakeNotifier('default');
    render(notifier);
    expect(state.asked).toBe(0);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Turn on desktop notifications' }));
    expect(state.asked).toBe(1);
    expect((await screen.findByRole('status')).textContent).toBe('Desktop notifications on');
  });

  it('says when the browser blocks them or has none', () => {
    const blocked = render(fakeNotifier('denied').notifier);
    expect(screen.getByRole('status').textContent).toBe('Notifications blocked by the browser');
    expect(screen.queryByRole('button')).toBeNull();
    blocked.unmount();
    render(fakeNotifier('unsupported').notifier);
    expect(screen.getByRole('status').textContent).toBe('Desktop notifications not supported');
  });

  it('tells a new text in a hidden tab: the number as people read it, its first line; a click opens the conversation', async () => {
    const { notifier, state } = fakeNotifier('granted');
    render(notifier);
    push('new_message', { conversationId: 'cv-1', message: text(), conversation: conversation as Conversation });
    // The phone-number library loads for it: the notice waits for it, never shows the stored form first.
    await waitFor(() => expect(state.shown).toHaveLength(1));
    expect(state.shown.map(({ title, body }) => ({ title, body }))).toEqual([
      { title: '(415) 555-0201', body: 'Is my order on its way?' },
    ]);
    act(() => state.shown[0]?.onClick());
    expect(state.focused).toBe(1);
    expect(screen.getByTestId('where').textContent).toBe('/conversations/cv-1');
  });

  it('tells an incoming call in a hidden tab by the contact; a click only brings the tab back', async () => {
    const { notifier, state } = fakeNotifier('granted');
    render(notifier);
    push('incoming_call', {
      callSid: 'CA1',
      from: '+14155550201',
      to: '+14155550101',
      contact: { id: 'ct-1', name: 'Grace Hopper', phoneNumber: '+14155550201' },
    });
    await waitFor(() => expect(state.shown).toHaveLength(1));
    expect(state.shown.map(({ title, body }) => ({ title, body }))).toEqual([{ title: 'Incoming call', body: 'Grace Hopper' }]);
    act(() => state.shown[0]?.onClick());
    expect(state.focused).toBe(1);
    expect(screen.getByTestId('where').textContent).toBe('/');
  });

  it('tells a caller the company has no contact for by the number: nationally from the company’s country, else internationally', async () => {
    const { notifier, state } = fakeNotifier('granted');
    render(notifier);
    push('incoming_call', { callSid: 'CA1', from: '+14155550201', to: '+14155550101', contact: null });
    push('incoming_call', {
      callSid: 'CA2',
      from: '+442079460958',
      to: '+14155550101',
      contact: { id: 'ct-2', name: ' ', phoneNumber: '+442079460958' },
    });
    await waitFor(() => expect(state.shown).toHaveLength(2));
    expect(state.shown.map(({ tag, body }) => [tag, body]).sort()).toEqual([
      ['call-CA1', '(415) 555-0201'],
      ['call-CA2', '+44 20 7946 0958'],
    ]);
  });

  it('tells nothing when the tab came back while the number was being made readable', async () => {
    const { notifier, state } = fakeNotifier('granted');
    render(notifier);
    push('incoming_call', { callSid: 'CA1', from: '+14155550201', to: '+14155550101', contact: null });
    state.hidden = false;
    // Once the library is in, the notice's turn has come and gone.
    await act(() => import('@shared/phone-numbers'));
    expect(state.shown).toEqual([]);
  });

  it('tells nothing while the tab is visible, before the opt-in, for replies and notes, or when blocked', () => {
    const visible = fakeNotifier('granted');
    visible.state.hidden = false;
    const first = render(visible.notifier);
    push('new_message', { conversationId: 'cv-1', message: text(), conversation: conversation as Conversation });
    push('incoming_call', { callSid: 'CA1', from: '+14155550201', to: '+14155550101', contact: null });
    expect(visible.state.shown).toEqual([]);
    first.unmount();

    const hidden = fakeNotifier('granted');
    const second = render(hidden.notifier);
    // The person's own reply (or a colleague's) and a note are not inbound texts.
    push('message_sent', {
      conversationId: 'cv-1',
      message: text({ direction: 'OUTBOUND' }),
      conversation: conversation as Conversation,
    });
    push('new_message', {
      conversationId: 'cv-1',
      message: text({ type: 'NOTE', direction: 'OUTBOUND' }),
      conversation: conversation as Conversation,
    });
    expect(hidden.state.shown).toEqual([]);
    second.unmount();

    for (const permission of ['default', 'denied'] as const) {
      const { notifier, state } = fakeNotifier(permission);
      const view = render(notifier);
      push('new_message', { conversationId: 'cv-1', message: text(), conversation: conversation as Conversation });
      expect(state.shown).toEqual([]);
      view.unmount();
    }
  });

  describe('a call ringing here (docs/product.md §10.5)', () => {
    /** The browser's Notification: jsdom has none, so a stand-in records what the page asked for. */
    class StubNotification {
      static permission: NotificationPermission = 'granted';
      static made: StubNotification[] = [];
      static requestPermission = async () => StubNotification.permission;
      onclick: (() => void) | null = null;
      closed = false;
      constructor(
        readonly title: string,
        readonly options: NotificationOptions,
      ) {
        StubNotification.made.push(this);
      }
      close() {
        this.closed = true;
      }
    }

    function Ringing({ callSid, soundBlocked, answer }: { callSid: string | null; soundBlocked: boolean; answer: () => void }) {
      usePublishRingingCall(callSid, soundBlocked, answer);
      return null;
    }

    const ring = (props: { callSid: string | null; soundBlocked: boolean; answer: () => void }) =>
      renderWithProviders(
        <>
          <DesktopNotifications />
          <Ringing {...props} />
        </>,
      );

    beforeEach(() => {
      StubNotification.made = [];
      vi.stubGlobal('Notification', StubNotification);
      return () => vi.unstubAllGlobals();
    });

    it('is told in a visible tab while the browser blocks its ringtone, and the notice’s click answers it', async () => {
      const answer = vi.fn();
      ring({ callSid: 'CA1', soundBlocked: true, answer });
      push('incoming_call', {
        callSid: 'CA1',
        from: '+14155550201',
        to: '+14155550101',
        contact: { id: 'ct-1', name: 'Grace Hopper', phoneNumber: '+14155550201' },
      });
      await waitFor(() => expect(StubNotification.made).toHaveLength(1));
      const [notice] = StubNotification.made;
      expect(notice?.title).toBe('Incoming call');
      expect(notice?.options).toMatchObject({ body: 'Grace Hopper\nClick to answer', tag: 'call-CA1', requireInteraction: true });
      act(() => notice?.onclick?.());
      expect(answer).toHaveBeenCalledTimes(1);
      expect(notice?.closed).toBe(true);
    });

    it('is not told in a visible tab that can ring; a notice of a call no longer ringing here answers nothing', async () => {
      const answer = vi.fn();
      const audible = ring({ callSid: 'CA1', soundBlocked: false, answer });
      push('incoming_call', { callSid: 'CA1', from: '+14155550201', to: '+14155550101', contact: null });
      await act(() => import('@shared/phone-numbers'));
      expect(StubNotification.made).toEqual([]);
      audible.unmount();

      ring({ callSid: null, soundBlocked: true, answer });
      push('incoming_call', { callSid: 'CA2', from: '+14155550201', to: '+14155550101', contact: null });
      await waitFor(() => expect(StubNotification.made).toHaveLength(1));
      act(() => StubNotification.made[0]?.onclick?.());
      expect(answer).not.toHaveBeenCalled();
    });

    it('takes its notice back once the call no longer rings: answered, here or by a colleague, or over', async () => {
      ring({ callSid: 'CA1', soundBlocked: true, answer: vi.fn() });
      push('incoming_call', { callSid: 'CA1', from: '+14155550201', to: '+14155550101', contact: null });
      push('incoming_call', { callSid: 'CA2', from: '+14155550202', to: '+14155550101', contact: null });
      await waitFor(() => expect(StubNotification.made).toHaveLength(2));
      const notice = (callSid: string) => StubNotification.made.find((n) => n.options.tag === `call-${callSid}`);
      push('call_answered', { callSid: 'CA1', answeredBy: 'u-2' });
      expect(notice('CA1')?.closed).toBe(true);
      expect(notice('CA2')?.closed).toBe(false);
      push('call_ended', { callSid: 'CA2', callStatus: 'NO_ANSWER' });
      expect(notice('CA2')?.closed).toBe(true);
    });

    it('raises none for a call that stopped ringing while its caller was being made readable', async () => {
      ring({ callSid: null, soundBlocked: true, answer: vi.fn() });
      push('incoming_call', { callSid: 'CA3', from: '+14155550201', to: '+14155550101', contact: null });
      push('call_ended', { callSid: 'CA3', callStatus: 'NO_ANSWER' });
      await act(() => import('@shared/phone-numbers'));
      expect(StubNotification.made).toEqual([]);
    });
  });
});
