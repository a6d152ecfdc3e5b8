import type { EmulatorEvents } from '../events';
import {
  type AccountRecord,
  type CallRecord,
  type ConferenceEvent,
  type ConferenceRecord,
  newSid,
  now,
  type ParticipantRecord,
  rfc2822,
  type WebhookMethod,
} from '../model';
import { done, type Outcome, refused } from '../outcome';
import { deliverWebhook } from '../webhooks';
import type { Departure, JoinOptions } from './conference-fields';
import { parseTwiml } from './twiml';
import { ERRORS, gone, reportError, type VoiceContext } from './voice-context';

/**
 * Conferences: calls joined by `<Dial><Conference>` or dialled in through the Participants resource,
 * mixed by the media engine (told through the `conference` event), held with music, muted, announced
 * to, removed; the conference status callbacks (start, end, join, leave, mute, hold), signed and in
 * order per conference. A conference starts when a participant with startConferenceOnEnter joins and
 * ends when its last participant leaves, when one with endConferenceOnExit leaves, or through the API.
 * https://www.twilio.com/docs/voice/twiml/conference
 */
export function conferences(ctx: VoiceContext, events: EmulatorEvents) {
  const { store } = ctx;
  const queues = new Map<string, Promise<void>>();
  const sequence = new Map<string, number>();

  const changed = (account: AccountRecord, conference: ConferenceRecord) => {
    conference.dateUpdated = now(store.clock);
    events.emit('conference', account, conference);
  };

  /** The account's conference under way with that name, or the one with that SID. */
  function find(account: AccountRecord, nameOrSid: string): ConferenceRecord | undefined {
    return (
      account.conferences.find((c) => c.sid === nameOrSid) ??
      account.conferences.find((c) => c.friendlyName === nameOrSid && c.status !== 'completed')
    );
  }

  /** The conference a call is in now (connected), or about to join (dialled through the API). */
  function ofCall(account: AccountRecord, callSid: string) {
    for (const conference of account.conferences) {
      if (conference.status === 'completed') continue;
      const participant = conference.participants.find((p) => p.callSid === callSid && isPresent(p));
      if (participant) return { conference, participant };
    }
    return undefined;
  }

  function open(account: AccountRecord, name: string): ConferenceRecord {
    const existing = find(account, name);
    if (existing && existing.status !== 'completed') return existing;
    const at = now(store.clock);
    const conference: ConferenceRecord = {
      sid: newSid('CF'),
      friendlyName: name,
      status: 'init',
      dateCreated: at,
      dateUpdated: at,
      reasonConferenceEnded: null,
      callSidEndingConference: null,
      statusCallback: '',
      statusCallbackMethod: 'POST',
      statusCallbackEvents: [],
      participants: [],
      callbacks: [],
    };
    store.change(() => account.conferences.push(conference));
    return conference;
  }

  function newParticipant(callSid: string, options: JoinOptions, status: ParticipantRecord['status']): ParticipantRecord {
    const at = now(store.clock);
    return {
      callSid,
      label: options.label,
      status,
      muted: options.muted,
      hold: false,
      holdUrl: '',
      holdMethod: 'POST',
      waitUrl: options.waitUrl ?? '',
      waitMethod: options.waitMethod,
      beep: options.beep !== 'false',
      startConferenceOnEnter: options.startConferenceOnEnter,
      endConferenceOnExit: options.endConferenceOnExit,
      dateCreated: at,
      dateUpdated: at,
      heard: [],
    };
  }

  /** The first participant naming a statusCallback gives the conference its callback and events. */
  function adoptCallback(conference: ConferenceRecord, options: JoinOptions) {
    if (conference.statusCallback || !options.statusCallback) return;
    conference.statusCallback = options.statusCallback;
    conference.statusCallbackMethod = options.statusCallbackMethod;
    conference.statusCallbackEvents = options.statusCallbackEvents;
  }

  function heard(participant: ParticipantRecord, what: string) {
    participant.heard.push({ what, at: now(store.clock) });
  }

  /** A call enters the conference (answered); the conference starts if it may. */
  function join(account: AccountRecord, call: CallRecord, options: JoinOptions, entering?: ParticipantRecord) {
    const conference = open(account, options.name);
    store.change(() => {
      adoptCallback(conference, options);
      conference.participants = conference.participants.filter((p) => p.callSid !== call.sid || p === entering);
      const participant = entering ?? newParticipant(call.sid, options, 'connected');
      participant.status = 'connected';
      participant.dateUpdated = now(store.clock);
      if (!entering) conference.participants.push(participant);
      if (options.beep === 'true' || options.beep === 'onEnter')
        for (const other of present(conference)) if (other !== participant) heard(other, 'beep');
    });
    const participant = conference.participants.find((p) => p.callSid === call.sid);
    if (!participant) return;
    post(account, conference, 'join', participant);
    if (conference.status === 'init' && participant.startConferenceOnEnter) {
      store.change(() => {
        conference.status = 'in-progress';
      });
      post(account, conference, 'start');
    }
    if (conference.status === 'init') void playWaiting(account, conference, call, participant);
    changed(account, conference);
  }

  /** A participant waiting for the conference to start hears the waitUrl's TwiML, or the wait music. */
  async function playWaiting(
    account: AccountRecord,
    conference: ConferenceRecord,
    call: CallRecord,
    participant: ParticipantRecord,
  ) {
    if (participant.waitUrl) await play(account, conference, call, participant, participant.waitUrl, participant.waitMethod);
    else store.change(() => heard(participant, 'wait-music'));
  }

  /**
   * Fetches TwiML played to one participant outside the mix (wait, hold, announce) and notes its
   * `<Play>`s and `<Say>`s as heard; the audio stays the emulator's hold music (it does not decode files).
   */
  async function play(
    account: AccountRecord,
    conference: ConferenceRecord,
    call: CallRecord,
    participant: ParticipantRecord,
    url: string,
    method: WebhookMethod,
  ) {
    const answer = await deliverWebhook({
      url,
      method,
      params: {
        AccountSid: account.sid,
        CallSid: call.sid,
        ConferenceSid: conference.sid,
        FriendlyName: conference.friendlyName,
      },
      authToken: account.authToken,
      signal: ctx.signal,
      lost: store.faults.takeWebhookDrop(account.sid),
      clock: store.clock,
    });
    if (gone(ctx, call)) return;
    const document = answer.status !== null && answer.status < 400 ? parseTwiml(answer.body) : undefined;
    if (!document?.ok) {
      reportError(
        ctx,
        account,
        call,
        document ? ERRORS.parse : ERRORS.retrieval,
        `Conference TwiML from ${url} could not be used`,
      );
      return;
    }
    store.change(() => {
      for (const verb of document.verbs) {
        if (verb.name === 'Play') heard(participant, `Play ${new URL(verb.text, url).toString()}`);
        else if (verb.name === 'Say') heard(participant, `Say ${verb.text}`);
      }
    });
  }

  /** A participant leaves: its call is woken to go on after the `<Dial>` (or to end). Ends the conference when it must. */
  function leave(account: AccountRecord, callSid: string, departure: Departure) {
    const found = ofCall(account, callSid);
    if (!found) return;
    const { conference, participant } = found;
    const wasConnected = participant.status === 'connected';
    store.change(() => {
      participant.status = wasConnected ? 'complete' : 'failed';
      participant.dateUpdated = now(store.clock);
    });
    if (wasConnected) post(account, conference, 'leave', participant, { ReasonParticipantLeft: departureReason(departure) });
    ctx.runs.get(callSid)?.wake();
    if (departure === 'ended') return;
    if (wasConnected && participant.endConferenceOnExit)
      end(
        account,
        conference,
        departure === 'kicked'
          ? 'participant-with-end-conference-on-exit-kicked'
          : 'participant-with-end-conference-on-exit-left',
        callSid,
      );
    else if (present(conference).length === 0)
      end(account, conference, departure === 'kicked' ? 'last-participant-kicked' : 'last-participant-left', callSid);
    else changed(account, conference);
  }

  /** The conference ends: everyone still in it leaves, and it is `completed`. */
  function end(account: AccountRecord, conference: ConferenceRecord, reason: string, callSid: string | null) {
    if (conference.status === 'completed') return;
    for (const participant of present(conference)) leave(account, participant.callSid, 'ended');
    store.change(() => {
      conference.status = 'completed';
      conference.reasonConferenceEnded = reason;
      conference.callSidEndingConference = callSid;
    });
    post(account, conference, 'end');
    changed(account, conference);
  }

  /** Changes a participant: hold (with the HoldUrl's TwiML), mute, an announcement; posts hold and mute events. */
  function update(
    account: AccountRecord,
    conference: ConferenceRecord,
    participant: ParticipantRecord,
    change: Partial<
      Pick<ParticipantRecord, 'hold' | 'holdUrl' | 'holdMethod' | 'muted' | 'endConferenceOnExit' | 'waitUrl' | 'waitMethod'>
    > & {
      announceUrl?: string;
      announceMethod?: WebhookMethod;
      beepOnExit?: boolean;
    },
  ) {
    const before = { hold: participant.hold, muted: participant.muted };
    store.change(() => {
      for (const key of ['hold', 'holdUrl', 'holdMethod', 'muted', 'endConferenceOnExit', 'waitUrl', 'waitMethod'] as const) {
        const value = change[key];
        if (value !== undefined) (participant as unknown as Record<string, unknown>)[key] = value;
      }
      if (change.beepOnExit !== undefined) participant.beep = change.beepOnExit;
      participant.dateUpdated = now(store.clock);
    });
    const call = store.findCall(participant.callSid)?.call;
    if (participant.hold !== before.hold) {
      post(account, conference, participant.hold ? 'participant-hold' : 'participant-unhold', participant);
      if (participant.hold && call) {
        if (participant.holdUrl) void play(account, conference, call, participant, participant.holdUrl, participant.holdMethod);
        else store.change(() => heard(participant, 'hold-music'));
      }
    }
    if (participant.muted !== before.muted)
      post(account, conference, participant.muted ? 'participant-mute' : 'participant-unmute', participant);
    if (change.announceUrl && call)
      void play(account, conference, call, participant, change.announceUrl, change.announceMethod ?? 'POST');
    changed(account, conference);
  }

  /** The conference under way a participant dialled through the API joins: by SID, or by name (made when none). */
  function openFor(account: AccountRecord, nameOrSid: string): Outcome<ConferenceRecord> {
    const existing = find(account, nameOrSid);
    if (!existing && /^CF[0-9a-f]{32}$/.test(nameOrSid)) return refused('unknown', `No conference ${nameOrSid}.`);
    if (existing?.status === 'completed') return refused('conflict', `Conference ${nameOrSid} has ended.`);
    return done(open(account, existing?.friendlyName ?? nameOrSid));
  }

  /** A participant dialled through the API, `queued` until its call rings. */
  function admit(conference: ConferenceRecord, callSid: string, options: JoinOptions) {
    const participant = newParticipant(callSid, { ...options, name: conference.friendlyName }, 'queued');
    store.change(() => {
      adoptCallback(conference, options);
      conference.participants.push(participant);
    });
    return participant;
  }

  /** Posts a conference status callback, if the conference subscribed to the event's kind. */
  function post(
    account: AccountRecord,
    conference: ConferenceRecord,
    event: string,
    participant?: ParticipantRecord,
    extra: Record<string, string> = {},
  ) {
    const kind = event.replace(/^(conference|participant)-/, '').replace(/^un/, '');
    if (!conference.statusCallback || !conference.statusCallbackEvents.includes(kind as ConferenceEvent)) return;
    const name = event.includes('-') ? event : `${participant ? 'participant' : 'conference'}-${event}`;
    const sequenceNumber = sequence.get(conference.sid) ?? 0;
    sequence.set(conference.sid, sequenceNumber + 1);
    const params: Record<string, string> = {
      AccountSid: account.sid,
      ConferenceSid: conference.sid,
      FriendlyName: conference.friendlyName,
      StatusCallbackEvent: name,
      SequenceNumber: String(sequenceNumber),
      Timestamp: rfc2822(now(store.clock)),
      ...(participant
        ? {
            CallSid: participant.callSid,
            Muted: String(participant.muted),
            Hold: String(participant.hold),
            Coaching: 'false',
            EndConferenceOnExit: String(participant.endConferenceOnExit),
            StartConferenceOnEnter: String(participant.startConferenceOnEnter),
            ...(participant.label ? { ParticipantLabel: participant.label } : {}),
          }
        : {}),
      ...(name === 'conference-end'
        ? {
            ReasonConferenceEnded: conference.reasonConferenceEnded ?? '',
            Reason: conference.reasonConferenceEnded ?? '',
            ...(conference.callSidEndingConference ? { CallSidEndingConference: conference.callSidEndingConference } : {}),
          }
        : {}),
      ...extra,
    };
    const next = (queues.get(conference.sid) ?? Promise.resolve())
      .then(async () => {
        if (ctx.signal.aborted) return;
        const attempt = await deliverWebhook({
          url: conference.statusCallback,
          method: conference.statusCallbackMethod,
          params,
          authToken: account.authToken,
          signal: ctx.signal,
          lost: store.faults.takeWebhookDrop(account.sid),
          clock: store.clock,
        });
        if (attempt.status === null || attempt.status >= 400)
          ctx.log.warn(`conference callback ${name} of ${conference.sid}: ${attempt.status ?? attempt.body}`);
        if (store.account(account.sid)?.conferences.includes(conference))
          store.change(() => conference.callbacks.push({ ...attempt, event: name, params }));
      })
      .catch((error: unknown) => ctx.log.error(`conference callback of ${conference.sid}: ${String(error)}`));
    queues.set(conference.sid, next);
  }

  return {
    find,
    ofCall,
    join,
    leave,
    end,
    update,
    openFor,
    admit,
    isIn: (account: AccountRecord, callSid: string) => ofCall(account, callSid)?.participant.status === 'connected',
    /** Resolves once the conference's callbacks asked for so far have been answered. */
    async drained(conferenceSid: string) {
      let pending: Promise<void> | undefined;
      while (pending !== queues.get(conferenceSid)) {
        pending = queues.get(conferenceSid);
        await pending;
      }
    },
    forget() {
      queues.clear();
      sequence.clear();
    },
  };
}

export type Conferences = ReturnType<typeof conferences>;

/** The participants in the conference now (not those still ringing, nor those gone). */
export const present = (conference: ConferenceRecord) => conference.participants.filter((p) => p.status === 'connected');

/** A participant the Participants resource shows: ringing or in the conference. */
export const isPresent = (participant: ParticipantRecord) =>
  participant.status === 'queued' || participant.status === 'ringing' || participant.status === 'connected';

function departureReason(departure: Departure) {
  return departure === 'kicked'
    ? 'participant_updated_via_api'
    : departure === 'ended'
      ? 'conference_ended'
      : 'participant_hung_up';
}
