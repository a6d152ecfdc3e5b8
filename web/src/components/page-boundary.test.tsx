import { act, fireEvent, render, screen } from '@testing-library/react';
import { lazy, Suspense } from 'react';
import { Link, MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { listenForMissingCode, RELOADED_FOR_NEW_VERSION_KEY, resetNewVersionState } from '../lib/new-version';
import { useUnsavedWork } from '../lib/unsaved-work';
import { NewVersionNotice } from './new-version-notice';
import { PageBoundary } from './page-boundary';

afterEach(() => resetNewVersionState());

const missingChunk = () =>
  Promise.reject(new TypeError('Failed to fetch dynamically imported module: http://localhost/assets/contacts-page-a1b2c3d4.js'));
const MissingPage = lazy(missingChunk);

function Broken(): never {
  throw new Error('a bug in the page');
}

function Draft() {
  useUnsavedWork('draft', true);
  return <p>Composer with a draft</p>;
}

/** The shell: a nav that outlives its pages, the pages in a boundary, and the floating notice. */
function Shell({ at }: { at: string }) {
  return (
    <MemoryRouter initialEntries={[at]}>
      <nav>
        <Link to="/dashboard">Dashboard</Link>
      </nav>
      <PageBoundary>
        <Suspense fallback={<p>Loading...</p>}>
          <Routes>
            <Route path="dashboard" element={<h1>Dashboard</h1>} />
            <Route path="contacts" element={<MissingPage />} />
            <Route path="broken" element={<Broken />} />
            <Route path="draft" element={<Draft />} />
          </Routes>
        </Suspense>
      </PageBoundary>
      <NewVersionNotice />
    </MemoryRouter>
  );
}

describe('PageBoundary (docs/product.md: A new version while a tab is open)', () => {
  it('shows "A new version is available" with Reload in place of a page whose code is gone, the shell still there', async () => {
    // The tab reloaded for a new version a moment ago, so reloading again would not help.
    window.sessionStorage.setItem(RELOADED_FOR_NEW_VERSION_KEY, String(Date.now()));
    vi.spyOn(console, 'error').mockImplementation(() => {}); // React reports the caught error
    render(<Shell at="/contacts" />);
    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toContain('A new version is available');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Dashboard' })).toBeTruthy();
    // One Reload button: the floating notice stays away while the page shows it.
    expect(screen.getAllByRole('button', { name: 'Reload' })).toHaveLength(1);

    fireEvent.click(screen.getByRole('link', { name: 'Dashboard' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
    // Elsewhere in the app the tab still says a new version waits, at the bottom.
    expect(screen.getByRole('alert').textContent).toContain('A new version is available.');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
  });

  it('says a page could not be shown when it fails otherwise, and the next page shows', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(<Shell at="/broken" />);
    expect((await screen.findByRole('alert')).textContent).toContain('This page could not be shown');
    expect(screen.queryByText('A new version is available', { exact: false })).toBeNull();
    fireEvent.click(screen.getByRole('link', { name: 'Dashboard' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps a draft: a chunk failing while a composer holds one brings the notice, not a reload', async () => {
    onTestFinished(listenForMissingCode()); // as main.tsx does
    render(<Shell at="/draft" />);
    expect(await screen.findByText('Composer with a draft')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => {
      window.dispatchEvent(new Event('vite:preloadError', { cancelable: true }));
    });
    const region = screen.getByRole('alert');
    expect(region.textContent).toContain('A new version is available.');
    expect(region.textContent).toContain('Reloading clears your draft.');
    expect(screen.getByText('Composer with a draft')).toBeTruthy();
    expect(window.sessionStorage.getItem(RELOADED_FOR_NEW_VERSION_KEY)).toBeNull();
  });
});
