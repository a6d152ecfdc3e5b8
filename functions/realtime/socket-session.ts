import { getActiveUser, getCompany } from '../auth/accounts';
import { liveSession } from '../auth/live-session';
import { AppError } from '../lib/app-error';
import { epochSeconds } from '../lib/table';
import type { NewConnection } from './connections';

/**
 * Whether a socket may still act for its member: its sign-in session holds (the check every signed-in
 * request makes, functions/auth/live-session.ts), its member has not been removed, and its company is
 * not being deleted. A sign-out, a removal or a deletion also closes the member's sockets, but a moment
 * after its own write; a socket's check-in and its phone's report ask this (docs/product.md §10.5).
 */
export async function socketSessionHolds(c: NewConnection): Promise<boolean> {
  if (c.sessionExpiresAt <= epochSeconds()) return false;
  // Side by side: a check-in's time is most of the socket's Lambda bill.
  const [session, user, company] = await Promise.all([
    liveSession(c).then(
      () => true,
      (error: unknown) => {
        if (error instanceof AppError && error.status === 401) return false;
        throw error;
      },
    ),
    getActiveUser(c.companyId, c.userId),
    getCompany(c.companyId),
  ]);
  return session && user !== undefined && company !== undefined && company.status !== 'DELETING';
}
