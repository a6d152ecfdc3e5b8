import type { Call } from '@shared/contract/calls';
import type { Message } from '@shared/contract/conversations';
import type { TimelineItem } from '@shared/contract/timeline';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { deferred, endpoints, fail, ok, renderWithProviders, signInAs, stubServer, urlOf } from '@/test-utils';
import { ContactTimeline } from './contact-timeline';

const NOW = new Date('2026-11-29T12:00:00.000Z');
const at = (minutesAgo: number) => new Date(NOW.getTime() - minutesAgo * 60_000).toISOString();

const message = (id: string, overrides: Partial<Message>): Message => ({
  id,
  conversationId: 'v-1',
  type: 'SMS',
  direction: 'INBOUND',
  body: '',
  status: 'RECEIVED',
  createdAt: at(1),
  sentBy: null,
  mentions: [],
  media: [],
  smsMessage: { providerStatus: null, providerMessageId: null, segments: 1, errorCode: null, errorMessage: null },
  ...overrides,
});
const call = (id: string, overrides: Partial<Call>): Call => ({
  id,
  direction: 'INBOUND',
  callStatus: 'COMPLETED',
  contact: { id: 'k-1', name: 'Ada Lovelace', phoneNumber: '+14155550101' },
  channel: { id: 'ch-1', phoneNumber: '+12025550100' },
  durationSeconds: 0,
  createdAt: at(1),
  recordingUrl: null,
  legs: [],
  held: false,
  holdSeconds: 0,
  providerCallId: `CA${id}`,
  answeredBy: null,
  voicemail: null,
  ...overrides,
});

const TEXT_IN: TimelineItem = {
  kind: 'TEXT',
  id: 'm-1',
  createdAt: at(2),
  message: message('m-1', { body: 'Is my order ready?', createdAt: at(2) }),
};
const TEXT_OUT: TimelineItem = {
  kind: 'TEXT',
  id: 'm-2',
  createdAt: at(3),
  message: message('m-2', {
    direction: 'OUTBOUND',
    status: 'DELIVERED',
    body: 'Yes, come by any time',
    sentBy: { id: 'u-1', name: 'Grace Hopper' },
    createdAt: at(3),
  }),
};
const NOTE: TimelineItem = {
  kind: 'NOTE',
  id: 'm-3',
  createdAt: at(4),
  message: message('m-3', {
    type: 'NOTE',
    direction: 'OUTBOUND',
    status: 'SENT',
    body: 'Prefers mornings',
    sentBy: { id: 'u-2', name: 'Alan Turing' },
    createdAt: at(4),
  }),
};
const ANSWERED: TimelineItem = {
  kind: 'CALL',
  id: 'c-1',
  createdAt: at(60),
  call: call('c-1', { durationSeconds: 125, answeredBy: { id: 'u-1', name: 'Grace Hopper' }, createdAt: at(60) }),
};
const PLACED: TimelineItem = {
  kind: 'CALL',
  id: 'c-2',
  createdAt: at(90),
  call: call('c-2', {
    direction: 'OUTBOUND',
    callStatus: 'NO_ANSWER',
    answeredBy: { id: 'u-2', name: 'Alan Turing' },
    createdAt: at(90),
  }),
};
const MISSED: TimelineItem = {
  kind: 'CALL',
  id: 'c-3',
  createdAt: at(120),
  call: call('c-3', { callStatus: 'NO_ANSWER', createdAt: at(120) }),
};
const VOICEMAIL: TimelineItem = {
  kind: 'VOICEMAIL',
  id: 'c-4',
  createdAt: at(180),
  call: call('c-4', {
    callStatus: 'NO_ANSWER',
    createdAt: at(180),
    voicemail: { durationSeconds: 42, url: urlOf(endpoints.voicemailAudio, { id: 'c-4' }), createdAt: at(179), listened: false },
  }),
};

const timelineUrl = urlOf(endpoints.contactTimeline, { id: 'k-1' });
const show = () => renderWithProviders(<ContactTimeline contactId="k-1" now={NOW} />);
const rows = async () => within(await screen.findByRole('list', { name: 'Activity' })).getAllByRole('listitem');

beforeEach(() => signInAs('AGENT'));

describe('ContactTimeline', () => {
  it('shows loading, then each kind of row newest first as the API gave them', async () => {
    const answer = deferred();
    stubServer(() => answer.promise);
    show();
    expect(screen.getByRole('status').textContent).toContain('Loading activity...');
    answer.release(ok({ items: [TEXT_IN, TEXT_OUT, NOTE, ANSWERED, PLACED, MISSED, VOICEMAIL], nextCursor: null }));
    expect((await rows()).map((row) => row.textContent)).toEqual([
      'Text receivedIs my order ready?2m ago',
      'Text sent by Grace HopperYes, come by any time3m ago',
      'Note by Alan TuringPrefers mornings4m ago',
      'Inbound callAnswered by Grace Hopper · 2:051h ago',
      'Outbound callPlaced by Alan Turing · No answer1h ago',
      'Missed call2h ago',
      // The voicemail's length before anyone plays it, and New until someone has.
      'VoicemailNew0:423h ago',
    ]);
    expect(screen.queryByRole('button', { name: 'Load older' })).toBeNull();
  });

  it('says when there is nothing yet', async () => {
    stubServer(() => ok({ items: [], nextCursor: null }));
    show();
    expect(await screen.findByText('No texts or calls with this contact yet.')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Activity' })).toBeNull();
  });

  it('says when it cannot be loaded', async () => {
    stubServer(() => fail(500, 'Something went wrong on our side. Please try again.', 'INTERNAL_ERROR'));
    show();
    expect((await screen.findByRole('alert')).textContent).toBe('Something went wrong on our side. Please try again.');
  });

  it('Load older asks for the page after the cursor, disabled while it loads, and adds it below', async () => {
    const older = deferred();
    const requests = stubServer((r) =>
      r.url === timelineUrl ? ok({ items: [TEXT_IN, NOTE], nextCursor: 'c1' }) : older.promise,
    );
    const user = userEvent.setup();
    show();
    expect(await rows()).toHaveLength(2);
    const load = screen.getByRole('button', { name: 'Load older' }) as HTMLButtonElement;
    load.focus();
    await user.keyboard('{Enter}');
    expect(requests.map((r) => r.url)).toEqual([timelineUrl, `${timelineUrl}?cursor=c1`]);
    expect(load.disabled).toBe(true);
    expect(load.textContent).toContain('Loading older...');
    older.release(ok({ items: [VOICEMAIL], nextCursor: null }));
    expect((await screen.findByText('Voicemail')).closest('li')?.textContent).toContain('0:42');
    expect((await rows()).map((row) => row.textContent?.slice(0, 13))).toEqual([
      'Text received',
      'Note by Alan ',
      'VoicemailNew0',
    ]);
    expect(screen.queryByRole('button', { name: 'Load older' })).toBeNull();
  });

  it('keeps what it shows when an older page fails, and says so', async () => {
    stubServer((r) =>
      r.url === timelineUrl
        ? ok({ items: [TEXT_IN], nextCursor: 'c1' })
        : fail(400, 'cursor is not a cursor of this timeline', 'VALIDATION_ERROR'),
    );
    const user = userEvent.setup();
    show();
    await user.click(await screen.findByRole('button', { name: 'Load older' }));
    expect((await screen.findByRole('alert')).textContent).toBe('cursor is not a cursor of this timeline');
    expect(await rows()).toHaveLength(1);
  });
});
