import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { callLine, deferred, endpoints, json, ok, renderWithProviders, stubServer } from '@/test-utils';
import { RecordingControl } from './recording-control';

const CALL = 'CA0123456789abcdef0123456789abcdef';

describe('RecordingControl', () => {
  it('pauses and resumes the call’s recording, the button disabled while the change is under way', async () => {
    const answers = [deferred(), deferred()];
    let asked = 0;
    const requests = stubServer(() => {
      const answer = answers[asked++];
      if (!answer) throw new Error('one request too many');
      return answer.promise;
    });
    renderWithProviders(<RecordingControl callSid={CALL} />);
    const user = userEvent.setup();
    expect(screen.getByRole('status').textContent).toBe('Recording');
    await user.click(screen.getByRole('button', { name: 'Pause recording' }));
    expect(screen.getByRole('button', { name: 'Pause recording' })).toHaveProperty('disabled', true);
    answers[0]?.release(ok({ recording: { status: 'PAUSED', paused: true, durationSeconds: 0, url: null } }));
    expect(await screen.findByRole('button', { name: 'Resume recording' })).toHaveProperty('disabled', false);
    expect(screen.getByRole('status').textContent).toBe('Recording paused');

    await user.click(screen.getByRole('button', { name: 'Resume recording' }));
    answers[1]?.release(ok({ recording: { status: 'RECORDING', paused: false, durationSeconds: 0, url: null } }));
    expect(await screen.findByRole('button', { name: 'Pause recording' })).toBeTruthy();
    expect(requests.map((r) => [`${r.method} ${r.url}`, r.body])).toEqual([
      [callLine(endpoints.pauseCallRecording, { callId: CALL }), { paused: true }],
      [callLine(endpoints.pauseCallRecording, { callId: CALL }), { paused: false }],
    ]);
  });

  it('says why the recording could not be paused, and stays as it was', async () => {
    stubServer(() => json(409, { success: false, error: { code: 'CONFLICT', message: 'This call is not being recorded.' } }));
    renderWithProviders(<RecordingControl callSid={CALL} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Pause recording' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This call is not being recorded.');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Pause recording' })).toHaveProperty('disabled', false));
    expect(screen.getByRole('status').textContent).toBe('Recording');
  });
});
