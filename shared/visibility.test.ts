import { describe, expect, it } from 'vitest';
import { type ChannelRouting, mayBeAssigned, sees, seesChannel, type Viewer } from './visibility';

const agent: Viewer = { userId: 'a', role: 'AGENT', inboxIds: ['sales'] };
const admin: Viewer = { userId: 'm', role: 'ADMIN', inboxIds: [] };
const owner: Viewer = { userId: 'o', role: 'OWNER', inboxIds: [] };
const inbox = (id: string): ChannelRouting => ({ routingType: 'INBOX', routingTargetId: id });
const line = (userId: string): ChannelRouting => ({ routingType: 'USER', routingTargetId: userId });
const nobody: ChannelRouting = { routingType: 'UNASSIGNED', routingTargetId: null };

describe('who sees what', () => {
  it('owners and admins see every channel, unassigned and gone ones too', () => {
    for (const viewer of [owner, admin]) {
      for (const routing of [inbox('support'), line('a'), nobody, undefined]) expect(seesChannel(viewer, routing)).toBe(true);
    }
  });

  it('an agent sees the inboxes they belong to and their own line, not another inbox, line or an unassigned number', () => {
    expect(seesChannel(agent, inbox('sales'))).toBe(true);
    expect(seesChannel(agent, line('a'))).toBe(true);
    expect(seesChannel(agent, inbox('support'))).toBe(false);
    expect(seesChannel(agent, line('o'))).toBe(false);
    expect(seesChannel(agent, nobody)).toBe(false);
    expect(seesChannel(agent, undefined)).toBe(false);
  });

  it('an agent also sees what is assigned to them, what they handled and where they were mentioned', () => {
    const hidden = { routing: inbox('support') };
    expect(sees(agent, hidden)).toBe(false);
    expect(sees(agent, { ...hidden, assigneeId: 'a' })).toBe(true);
    expect(sees(agent, { ...hidden, assigneeId: 'someone' })).toBe(false);
    expect(sees(agent, { ...hidden, mentionedUserIds: ['a'] })).toBe(true);
    expect(sees(agent, { ...hidden, handledBy: [null, 'a'] })).toBe(true);
  });

  it('the assignment itself does not make a member assignable', () => {
    expect(mayBeAssigned(agent, { routing: inbox('support'), assigneeId: 'a' })).toBe(false);
    expect(mayBeAssigned(agent, { routing: inbox('sales'), assigneeId: 'o' })).toBe(true);
    expect(mayBeAssigned(agent, { routing: inbox('support'), mentionedUserIds: ['a'] })).toBe(true);
    expect(mayBeAssigned(owner, { routing: nobody })).toBe(true);
  });
});
