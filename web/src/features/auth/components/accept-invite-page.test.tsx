import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { json, stubServer } from '../../../test-utils';
import { AcceptInvitePage } from './accept-invite-page';

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/accept-invite" element={<AcceptInvitePage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('AcceptInvitePage', () => {
  it('says a link without a token is invalid, without asking the server', async () => {
    const requests = stubServer(() => json(500, {}));
    renderAt('/accept-invite');
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid invitation link. No token provided.');
    expect(requests).toEqual([]);
  });

  it("shows an expired link's message from the server and a way back to sign in", async () => {
    const message = 'This invitation has expired. Ask Ada Lovelace to send a new one.';
    stubServer(() => json(400, { success: false, error: { code: 'INVALID_TOKEN', message, details: { expired: true } } }));
    renderAt('/accept-invite?token=abc');
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(screen.getByRole('heading', { name: 'Invitation unavailable' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/login');
  });
});
