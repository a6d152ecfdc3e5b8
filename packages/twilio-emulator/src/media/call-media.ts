import type { CallMedia, ConferenceMember, MediaEngine, MediaSession, MediaSide, MediaStats } from './media-session';

interface CallSides {
  sessions: Partial<Record<MediaSide, MediaSession>>;
  ended: boolean;
}

/**
 * The media of every call, by root call SID: a side alone hears the engine's tone; once the browser
 * softphone ('client') and the phone page ('phone') are both attached they hear each other. A side
 * attached again (a new offer for the same call) replaces the old session, which is closed. An ended
 * call keeps its last counts, so a test or a person can read them after the hang-up. A call in a
 * conference is one party (its one side): the conference's calls are mixed instead of bridged.
 */
export function createCallMedia(engine: MediaEngine): CallMedia {
  const calls = new Map<string, CallSides>();
  /** Each conference's calls, and the conference each call's side is in. */
  const conferences = new Map<string, ConferenceMember[]>();
  const conferenceOf = new Map<string, string>();
  const sideKey = (rootCallSid: string, side: MediaSide) => `${rootCallSid}#${side}`;
  const sessionOf = (member: Pick<ConferenceMember, 'rootCallSid' | 'side'>) =>
    calls.get(member.rootCallSid)?.sessions[member.side];

  function mix(conferenceSid: string) {
    const members = conferences.get(conferenceSid) ?? [];
    engine.mix(
      members.flatMap((member) => {
        const session = sessionOf(member);
        return session ? [{ session, music: member.music, heard: member.heard }] : [];
      }),
    );
  }

  return {
    attach(rootCallSid, side, session) {
      const call = calls.get(rootCallSid) ?? { sessions: {}, ended: false };
      calls.set(rootCallSid, call);
      const previous = call.sessions[side];
      call.sessions[side] = session;
      if (previous && previous !== session) void previous.close();
      // Answered as the call ended: nothing to hear any more.
      if (call.ended) void session.close();
      else if (conferenceOf.has(sideKey(rootCallSid, side))) mix(conferenceOf.get(sideKey(rootCallSid, side)) ?? '');
      else if (call.sessions.client && call.sessions.phone) engine.bridge(call.sessions.client, call.sessions.phone);
    },

    conference(conferenceSid, members) {
      const now = new Set(members.map((m) => sideKey(m.rootCallSid, m.side)));
      for (const member of conferences.get(conferenceSid) ?? []) {
        const key = sideKey(member.rootCallSid, member.side);
        if (now.has(key)) continue;
        conferenceOf.delete(key);
        const session = sessionOf(member);
        if (session) engine.leaveMix(session);
      }
      for (const member of members) conferenceOf.set(sideKey(member.rootCallSid, member.side), conferenceSid);
      if (members.length === 0) conferences.delete(conferenceSid);
      else conferences.set(conferenceSid, members);
      mix(conferenceSid);
    },

    stats(rootCallSid) {
      const sessions = calls.get(rootCallSid)?.sessions ?? {};
      const stats: Partial<Record<MediaSide, MediaStats>> = {};
      for (const side of ['client', 'phone'] as const) {
        const session = sessions[side];
        if (session) stats[side] = session.stats();
      }
      return stats;
    },

    async end(rootCallSid) {
      const call = calls.get(rootCallSid) ?? { sessions: {}, ended: true };
      call.ended = true;
      calls.set(rootCallSid, call);
      await Promise.all(Object.values(call.sessions).map((session) => session.close()));
    },
  };
}
