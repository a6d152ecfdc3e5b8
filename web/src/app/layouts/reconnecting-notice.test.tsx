import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReconnectingNotice } from './reconnecting-notice';

afterEach(() => {
  vi.useRealTimers();
});

describe('ReconnectingNotice', () => {
  it('says Reconnecting… in a polite status region only once the socket has been down for 5 seconds', () => {
    vi.useFakeTimers();
    render(<ReconnectingNotice />);
    const region = screen.getByRole('status');
    expect(region.textContent).toBe('');
    act(() => vi.advanceTimersByTime(4_999));
    expect(region.textContent).toBe('');
    act(() => vi.advanceTimersByTime(1));
    expect(region.textContent).toBe('Reconnecting…');
  });
});
