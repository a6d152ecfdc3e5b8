import { describe, expect, it, vi } from 'vitest';
import type { AppError } from '../lib/app-error';
import { checkMayInvite, toInvitation } from './invitations';
import { checkMayManage } from './members';

/** The team's rules, without a table: who may invite whom, act on whom, and what an invitation shows. */

const refusal = (run: () => void): Pick<AppError, 'status' | 'message'> | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    const { status, message } = error as AppError;
    return { status, message };
  }
};

describe('checkMayInvite', () => {
  it('the owner invites admins and agents; an admin, agents only', () => {
    expect(refusal(() => checkMayInvite('OWNER', 'ADMIN'))).toBeUndefined();
    expect(refusal(() => checkMayInvite('OWNER', 'AGENT'))).toBeUndefined();
    expect(refusal(() => checkMayInvite('ADMIN', 'AGENT'))).toBeUndefined();
    expect(refusal(() => checkMayInvite('ADMIN', 'ADMIN'))).toEqual({
      status: 403,
      message: 'Only the owner can invite an admin.',
    });
    expect(refusal(() => checkMayInvite('AGENT', 'AGENT'))?.status).toBe(403);
  });
});

describe('checkMayManage', () => {
  const owner = { userId: 'o', role: 'OWNER' as const };
  const admin = { userId: 'a', role: 'ADMIN' as const };

  it('nobody acts on themselves or on the owner', () => {
    expect(refusal(() => checkMayManage(admin, { id: 'a', role: 'ADMIN' }, 'remove'))).toEqual({
      status: 403,
      message: 'You cannot remove yourself.',
    });
    expect(refusal(() => checkMayManage(admin, { id: 'o', role: 'OWNER' }, 'change the role of'))).toEqual({
      status: 403,
      message: 'You cannot change the role of the owner.',
    });
  });

  it('only the owner removes an admin; an admin removes agents', () => {
    expect(refusal(() => checkMayManage(owner, { id: 'a2', role: 'ADMIN' }, 'remove'))).toBeUndefined();
    expect(refusal(() => checkMayManage(admin, { id: 'a2', role: 'ADMIN' }, 'remove'))).toEqual({
      status: 403,
      message: 'Only the owner can remove an admin.',
    });
    expect(refusal(() => checkMayManage(admin, { id: 'g', role: 'AGENT' }, 'remove'))).toBeUndefined();
  });
});

describe('toInvitation', () => {
  it('shows when the link stops working, and whether it already has', () => {
    vi.useFakeTimers({ now: new Date('2026-01-10T00:00:00.000Z') });
    try {
      const record = {
        id: 'i1',
        companyId: 'c1',
        email: 'ada@example.com',
        role: 'AGENT' as const,
        invitedById: 'o',
        invitedByName: 'Olivia',
        createdAt: '2026-01-01T00:00:00.000Z',
        tokenHash: 'h',
      };
      const live = toInvitation({ ...record, validUntil: Date.parse('2026-01-11T00:00:00.000Z') / 1000 });
      expect(live).toMatchObject({
        expiresAt: '2026-01-11T00:00:00.000Z',
        expired: false,
        invitedBy: { id: 'o', name: 'Olivia' },
      });
      expect(toInvitation({ ...record, validUntil: Date.parse('2026-01-09T00:00:00.000Z') / 1000 }).expired).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
