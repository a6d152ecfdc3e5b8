import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { push } from '@/test-realtime';
import { deferred, fail, ok, renderWithProviders, signInAs, stubServer } from '@/test-utils';
import { ActiveCallPanel } from './active-call-panel';

vi.mock('@/lib/realtime/realtime', () => import('@/test-realtime'));

const CALL_SID = `CA${'1'.repeat(32)}`;
const CALL = { direction: 'INCOMING' as const, callSid: CALL_SID, from: '+14155550199', to: '+14155550101', contactName: null };
/** The call as the hold route answers it (only what the widget reads matters). */
const answer = (held: boolean) => ok({ call: { providerCallId: CALL_SID, held, holdSeconds: 0 } });

function panel(callSid: string | null = CALL_SID) {
  return renderWithProviders(
    <ActiveCallPanel
      call={{ ...CALL, callSid }}
      since={Date.now()}
      muted={false}
      onToggleMute={() => {}}
      onDigit={() => {}}
      onEnd={() => {}}
    />,
  );
}

describe('the active call’s Hold (docs/product.md: Hold)', () => {
  let signOut: () => void;
  beforeEach(() => {
    signOut = signInAs('AGENT');
  });
  afterEach(() => {
    signOut();
    vi.unstubAllGlobals();
  });

  it('holds the customer: disabled while pending, then "On hold" with its timer and Resume, which brings them back', async () => {
    const pending = deferred();
    const requests = stubServer((request) =>
      request.body && (request.body as { held: boolean }).held ? pending.promise : answer(false),
    );
    const events = userEvent.setup();
    panel();
    await events.click(screen.getByRole('button', { name: 'Hold' }));
    expect((screen.getByRole('button', { name: 'Hold' }) as HTMLButtonElement).disabled).toBe(true);
    expect(requests[0]).toMatchObject({ method: 'POST', body: { held: true } });
    expect(requests[0]?.url).toContain(`/api/v1/calls/${CALL_SID}/hold`);
    pending.release(answer(true));

    const resume = await screen.findByRole('button', { name: 'Resume' });
    expect(resume.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('status').textContent).toContain('On hold');
    expect(screen.getByRole('timer', { name: 'Time on hold' }).textContent).toBe('0:00');

    await events.click(resume);
    await screen.findByRole('button', { name: 'Hold' });
    expect(requests[1]).toMatchObject({ method: 'POST', body: { held: false } });
    expect(screen.queryByText('On hold')).toBeNull();
  });

  it('says why a hold failed, and stays off hold', async () => {
    stubServer(() => fail(409, 'This call is not in progress, so it cannot be put on hold.', 'CONFLICT'));
    const events = userEvent.setup();
    panel();
    await events.click(screen.getByRole('button', { name: 'Hold' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This call is not in progress, so it cannot be put on hold.');
    expect(screen.getByRole('button', { name: 'Hold' })).toBeTruthy();
    expect(screen.queryByText('On hold')).toBeNull();
  });

  it('follows a hold made in another tab, and ignores other calls’', async () => {
    stubServer(() => answer(false));
    panel();
    push('call_held', { callSid: `CA${'2'.repeat(32)}`, held: true, heldSince: new Date().toISOString(), holdSeconds: 0 });
    expect(screen.queryByText('On hold')).toBeNull();
    push('call_held', { callSid: CALL_SID, held: true, heldSince: new Date().toISOString(), holdSeconds: 0 });
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('On hold'));
    push('call_held', { callSid: CALL_SID, held: false, heldSince: null, holdSeconds: 3 });
    await waitFor(() => expect(screen.queryByText('On hold')).toBeNull());
  });

  it('is disabled until the call has an id (an outbound call Twilio has not named yet)', () => {
    stubServer(() => answer(false));
    panel(null);
    expect((screen.getByRole('button', { name: 'Hold' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
