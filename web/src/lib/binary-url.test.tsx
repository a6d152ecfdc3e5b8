import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { endpoints, signInAs, stubObjectUrls, urlOf } from '../test-utils';
import { useBinaryUrl } from './binary-url';
import { session } from './services';

function wrapper() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

describe('useBinaryUrl', () => {
  it('loads only once enabled, gives an object URL, and revokes it on unmount', async () => {
    const urls = stubObjectUrls();
    const load = vi.fn(async () => new Blob(['RIFF'], { type: 'audio/wav' }));
    const { result, rerender, unmount } = renderHook(
      ({ on }) => useBinaryUrl(urlOf(endpoints.voicemailAudio, { id: 'c1' }), load, on),
      {
        wrapper: wrapper(),
        initialProps: { on: false },
      },
    );
    expect(result.current.url).toBeUndefined();
    expect(result.current.isLoading).toBe(false);
    expect(load).not.toHaveBeenCalled();

    rerender({ on: true });
    expect(result.current.isLoading).toBe(true);
    await waitFor(() => expect(result.current.url).toBe('blob:test/1'));
    expect(urls.made[0]?.type).toBe('audio/wav');
    unmount();
    expect(urls.revoked).toEqual(['blob:test/1']);
  });

  it('reads the bytes of one URL once for every user of them, each with an object URL of its own', async () => {
    const urls = stubObjectUrls();
    const load = vi.fn(async () => new Blob(['png'], { type: 'image/png' }));
    const Wrapper = wrapper();
    const { result } = renderHook(() => [useBinaryUrl('/media/0', load, true), useBinaryUrl('/media/0', load, true)] as const, {
      wrapper: Wrapper,
    });
    await waitFor(() => expect(result.current.every((r) => r.url)).toBe(true));
    expect(load).toHaveBeenCalledTimes(1);
    expect(new Set(result.current.map((r) => r.url)).size).toBe(2);
    expect(urls.made).toHaveLength(2);
  });

  it('revokes every object URL it made when the session ends, though the page still shows them (docs/security.md: Media in the browser)', async () => {
    signInAs('AGENT');
    const urls = stubObjectUrls();
    const load = vi.fn(async () => new Blob(['png'], { type: 'image/png' }));
    const { result } = renderHook(
      () => [useBinaryUrl('/media/1', load, true), useBinaryUrl('/voicemail/1', load, true)] as const,
      {
        wrapper: wrapper(),
      },
    );
    await waitFor(() => expect(result.current.every((r) => r.url)).toBe(true));
    expect(urls.revoked).toEqual([]);
    session.clear();
    expect(urls.revoked.sort()).toEqual(['blob:test/1', 'blob:test/2']);
  });
});
