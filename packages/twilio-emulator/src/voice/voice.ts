import type { CallUpdate, EmulatorEvents } from '../events';
import type { Logger } from '../log';
import { type AccountRecord, type CallRecord, now, type WebhookMethod } from '../model';
import { done, type Outcome, refused } from '../outcome';
import type { EmulatorStore } from '../store';
import { type CallLegs, callLegs, isFinal } from './call-legs';
import { speakOnCallRecording } from './call-recordings-api';
import { CallRun } from './call-run';
import { conferences, isPresent } from './conferences';
import { run } from './interpreter';
import { type ConferenceControls, dialIn } from './participant-call';
import { recordingView } from './recordings-representation';
import { type CallView, callView } from './representation';
import type { VoiceContext } from './voice-context';

/**
 * Calls: an outside phone calling an account's number, a Voice SDK client calling out through the
 * account's TwiML application, and the controls on calls under way; the TwiML interpreter
 * (interpreter.ts, dial.ts) carries out what the product answers. Time-based
 * parts (a Pause, a Dial's ring timeout) last their Twilio seconds times `timeScale(accountSid)`, and
 * `advance` ends the current one at once, so tests never wait for real seconds.
 */
export function startVoice(options: {
  store: EmulatorStore;
  events: EmulatorEvents;
  log: Logger;
  timeScale: (accountSid: string) => number;
  /** The emulator's own address, once it listens. */
  baseUrl: () => string;
}) {
  const { store, events, log, timeScale, baseUrl } = options;
  const stopped = new AbortController();
  const legs: CallLegs = callLegs({ store, events, log, signal: stopped.signal });
  /** The runs of calls under way, by the SID of the call whose TwiML runs (the parent). */
  const runs = new Map<string, CallRun>();
  const ctx = { store, log, legs, timeScale, signal: stopped.signal, runs, baseUrl } as VoiceContext;
  const conferenceParts = conferences(ctx, events);
  ctx.conferences = conferenceParts;
  const conferenceControls: ConferenceControls = {
    ...conferenceParts,
    dialIn: (account, nameOrSid, input) => dialIn(ctx, conferenceParts, account, nameOrSid, input),
  };

  // A call cannot go on across a restart (its TwiML run was in memory): it ends where it was.
  for (const account of store.accounts) {
    for (const call of account.calls) {
      if (!isFinal(call)) {
        store.change(() => {
          call.status = call.answeredAt ? 'completed' : 'failed';
          call.endTime = now(store.clock);
        });
      }
    }
    for (const conference of account.conferences) {
      if (conference.status !== 'completed') {
        store.change(() => {
          conference.status = 'completed';
          conference.reasonConferenceEnded = 'last-participant-left';
          for (const participant of conference.participants) if (isPresent(participant)) participant.status = 'complete';
        });
      }
    }
  }

  /** The Call resource's updates: hang up, cancel, or carry out other TwiML. */
  const onUpdate = (account: AccountRecord, call: CallRecord, update: CallUpdate) => {
    const parentSid = call.parentCallSid ?? call.sid;
    const callRun = runs.get(parentSid);
    if (update.status === 'canceled' && call.answeredAt) return;
    if (call.parentCallSid) {
      // A leg ended through the API ends as if its party hung up.
      const legRun = runs.get(call.sid);
      if (update.status) legs.setStatus(account, call, call.answeredAt ? 'completed' : 'canceled');
      else if (legRun) legRun.redirect = { twiml: update.twiml, url: update.url, method: update.method };
      else if (call.status === 'in-progress') {
        // A bridged leg redirected leaves its <Dial> (whose caller goes on to the Dial's action) and
        // carries out the TwiML itself, as Twilio moves both parties of a call into a conference.
        const own = new CallRun(call.sid);
        own.redirect = { twiml: update.twiml, url: update.url, method: update.method };
        runs.set(call.sid, own);
        void run(ctx, account, call, { url: '', method: 'POST' }, {}, own);
      }
      legRun?.wake();
    } else if (update.status) {
      if (callRun) callRun.callerGone = true;
      else legs.setStatus(account, call, call.answeredAt ? 'completed' : 'canceled');
    } else if (callRun) {
      callRun.redirect = { twiml: update.twiml, url: update.url, method: update.method };
    }
    callRun?.wake();
  };
  events.on('callUpdate', onUpdate);

  /** Starts a call's TwiML and answers once it first waits or ends, with its callbacks so far answered. */
  async function start(
    account: AccountRecord,
    call: CallRecord,
    first: { url: string; method: WebhookMethod; fallback?: { url: string; method: WebhookMethod } },
    extra: Record<string, string> = {},
  ) {
    const callRun = new CallRun(call.sid);
    runs.set(call.sid, callRun);
    const settled = callRun.settled();
    void run(ctx, account, call, first, extra, callRun);
    await settled;
    await legs.drained(call);
    return viewOf(account, call);
  }

  /** Waits until the run has acted on a change, and the callbacks it led to have been answered. */
  async function afterChange(account: AccountRecord, call: CallRecord) {
    const parentSid = call.parentCallSid ?? call.sid;
    // A leg carrying out TwiML of its own (redirected into a conference) hears of its change too.
    if (call.parentCallSid) runs.get(call.sid)?.wake();
    const callRun = runs.get(parentSid);
    if (callRun) {
      const settled = callRun.settled();
      callRun.wake();
      await settled;
    }
    const parent = store.findCall(parentSid)?.call ?? call;
    await legs.drained(parent);
    return viewOf(account, parent);
  }

  /** The call's story with its recordings (oldest first, with their status callbacks) and the conferences it was in. */
  function viewOf(account: AccountRecord, call: CallRecord): CallView {
    const recordings = account.recordings.filter((r) => r.callSid === call.sid).map((r) => recordingView(account, r, baseUrl()));
    const inConferences = account.conferences.flatMap((conference) =>
      conference.participants
        .filter((p) => p.callSid === call.sid)
        .map((participant) => ({
          sid: conference.sid,
          friendlyName: conference.friendlyName,
          status: conference.status,
          participant,
        })),
    );
    return { ...callView(account, call), recordings, conferences: inConferences };
  }

  function childrenOf(account: AccountRecord, call: CallRecord) {
    return account.calls.filter((c) => c.parentCallSid === call.sid);
  }

  return {
    /** An outside phone calls an account's number: the number's Voice URL (or its application's) is requested. */
    async callFromPhone(input: { from: string; to: string }): Promise<Outcome<CallView>> {
      const owner = store.findNumber(input.to);
      if (!owner) return refused('unknown', `No emulator account has the number ${input.to}.`);
      const { account, number } = owner;
      if (!number.capabilities.voice) return refused('unable', `${input.to} (${number.friendlyName}) cannot receive calls.`);
      const application = number.voiceApplicationSid
        ? account.applications.find((a) => a.sid === number.voiceApplicationSid)
        : undefined;
      const voice = application ?? number;
      if (!voice.voiceUrl)
        return refused('unable', `${input.to} (${number.friendlyName}) has no Voice URL: nothing would answer.`);
      const call = legs.create(account, {
        direction: 'inbound',
        from: input.from,
        to: input.to,
        status: 'ringing',
        phoneNumberSid: number.sid,
        applicationSid: application?.sid,
        // The number's StatusCallback hears of the call's end only.
        statusCallback: voice.statusCallback,
        statusCallbackMethod: voice.statusCallbackMethod,
        statusCallbackEvents: ['completed'],
      });
      const view = await start(account, call, {
        url: voice.voiceUrl,
        method: voice.voiceMethod,
        fallback: { url: voice.voiceFallbackUrl, method: voice.voiceFallbackMethod },
      });
      return done(view);
    },

    /**
     * A Voice SDK client calls out: the account's TwiML application is requested with the client as
     * From and Caller, Direction `inbound`, ApplicationSid, and the client's params (To, and any
     * other the client sends). A param named From replaces the client's From, so a caller ID the
     * client chose reaches the product as From; Caller always names the client, and the call's own
     * identifiers (CallSid, AccountSid, ApplicationSid, Direction, CallStatus) cannot be replaced.
     */
    async callFromClient(input: {
      accountSid: string;
      applicationSid: string;
      identity: string;
      params: Record<string, string>;
    }): Promise<Outcome<CallView>> {
      const account = store.account(input.accountSid);
      if (!account) return refused('unknown', `No account ${input.accountSid} in the emulator.`);
      const application = account.applications.find((a) => a.sid === input.applicationSid);
      if (!application) return refused('unknown', `${input.applicationSid} is not an application of account ${account.sid}.`);
      if (!application.voiceUrl)
        return refused('unable', `Application ${application.sid} has no Voice URL: nothing would answer.`);
      const client = `client:${input.identity}`;
      const call = legs.create(account, {
        direction: 'inbound',
        from: client,
        to: input.params.To ?? '',
        status: 'ringing',
        applicationSid: application.sid,
        parameters: input.params,
        statusCallback: application.statusCallback,
        statusCallbackMethod: application.statusCallbackMethod,
        statusCallbackEvents: ['completed'],
      });
      const view = await start(
        account,
        call,
        {
          url: application.voiceUrl,
          method: application.voiceMethod,
          fallback: { url: application.voiceFallbackUrl, method: application.voiceFallbackMethod },
        },
        { ...withoutReserved(input.params), Caller: client },
      );
      return done(view);
    },

    /** A ringing leg is picked up: by its party (`client:{identity}` or a number), named when several ring. */
    async answer(sid: string, by?: string): Promise<Outcome<CallView>> {
      const found = store.findCall(sid);
      if (!found) return refused('unknown', `No call ${sid} in the emulator.`);
      const { account, call } = found;
      // A leg, or a call dialled through the API (a conference participant), rings itself.
      const ringsItself = call.parentCallSid || call.direction === 'outbound-api';
      const ringing = ringsItself ? [call] : childrenOf(account, call).filter((leg) => leg.status === 'ringing');
      const leg = by === undefined ? (ringing.length === 1 ? ringing[0] : undefined) : ringing.find((l) => l.to === by);
      if (!leg) {
        const parties = ringing.map((l) => l.to).join(', ') || 'none';
        return refused(
          by === undefined && ringing.length > 1 ? 'unable' : 'conflict',
          `${by === undefined ? 'Say who answers' : `${by} is not ringing on ${sid}`}; ringing: ${parties}.`,
        );
      }
      if (leg.status !== 'ringing') return refused('conflict', `${leg.sid} is ${leg.status}, not ringing.`);
      const parent = leg.parentCallSid ? store.findCall(leg.parentCallSid)?.call : undefined;
      const first = parent && childrenOf(account, parent).find((l) => l.answeredAt);
      if (first) return refused('conflict', `${first.to} answered first; ${leg.to} was canceled.`);
      legs.setStatus(account, leg, 'in-progress', leg.to);
      return done(await afterChange(account, leg));
    },

    /**
     * Somebody hangs up. On a call's own SID (or `by` its caller) the caller hangs up; on a leg's SID
     * (or `by` a leg's party) that party does: a ringing leg declined ends `busy`, as a busy line.
     */
    async hangUp(sid: string, by?: string): Promise<Outcome<CallView>> {
      const found = store.findCall(sid);
      if (!found) return refused('unknown', `No call ${sid} in the emulator.`);
      const { account, call } = found;
      const leg =
        call.parentCallSid || (call.direction === 'outbound-api' && !call.answeredAt)
          ? call
          : by !== undefined && by !== call.from
            ? childrenOf(account, call).find((l) => l.to === by && !isFinal(l))
            : undefined;
      if (by !== undefined && !leg && by !== call.from) return refused('conflict', `${by} is not on ${sid}.`);
      const ending = leg ?? call;
      if (isFinal(ending)) return refused('conflict', `${ending.sid} has already ended (${ending.status}).`);
      if (leg) legs.setStatus(account, leg, leg.status === 'ringing' ? 'busy' : leg.answeredAt ? 'completed' : 'canceled');
      else {
        const callRun = runs.get(call.sid);
        if (callRun) callRun.callerGone = true;
        else legs.setStatus(account, call, call.answeredAt ? 'completed' : 'canceled');
      }
      return done(await afterChange(account, ending));
    },

    /** Digits pressed on a call under way (0-9, *, #, and w for a half-second pause, as sendDigits takes). */
    sendDigits(sid: string, digits: string): Outcome<CallView> {
      const found = store.findCall(sid);
      if (!found) return refused('unknown', `No call ${sid} in the emulator.`);
      if (!/^[0-9*#w]+$/.test(digits))
        return refused('unable', 'Illegal character passed into sendDigits: only 0-9, *, # and w are allowed.');
      const { account, call } = found;
      if (call.status !== 'in-progress') return refused('conflict', `${sid} is ${call.status}: digits need a call under way.`);
      legs.change(account, call, (c) => c.digits.push({ digits, at: now(store.clock) }));
      const parent = call.parentCallSid ? store.findCall(call.parentCallSid)?.call : call;
      // The caller's keys end a <Record> whose finishOnKey has one of them.
      const recording = call.parentCallSid ? undefined : runs.get(call.sid)?.recording;
      const key = recording && [...digits].find((d) => recording.finishOnKey.includes(d));
      if (recording && key !== undefined && recording.pressed === undefined) {
        recording.pressed = key;
        runs.get(call.sid)?.wake();
      }
      return done(viewOf(account, parent ?? call));
    },

    /** Digits pressed, answered once the run acted on them (a <Record> they ended, its action). */
    async pressDigits(sid: string, digits: string): Promise<Outcome<CallView>> {
      const sent = this.sendDigits(sid, digits);
      const found = store.findCall(sid);
      if (!sent.ok || !found) return sent;
      return done(await afterChange(found.account, found.call));
    },

    /**
     * The caller speaks for `seconds` into the <Record> under way, as if that much time passed for it
     * (up to its maxLength, which then ends it). Tests drive a recording's length so, never by waiting.
     */
    async speak(sid: string, seconds: number): Promise<Outcome<CallView>> {
      const found = store.findCall(sid);
      if (!found) return refused('unknown', `No call ${sid} in the emulator.`);
      const recording = runs.get(sid)?.recording;
      // Or a recording of the Call Recordings API: it is that much longer.
      if (!recording && speakOnCallRecording(store, found.account, sid, seconds)) return done(viewOf(found.account, found.call));
      if (!recording) return refused('conflict', `${sid} is not recording (no <Record> or call recording under way).`);
      recording.spokenSeconds += seconds;
      return done(await afterChange(found.account, found.call));
    },

    /** Ends the call's current timed wait (a Pause, a Dial ringing) now, as if its time had passed. */
    async advance(sid: string): Promise<Outcome<CallView>> {
      const found = store.findCall(sid);
      if (!found) return refused('unknown', `No call ${sid} in the emulator.`);
      const { account, call } = found;
      const parentSid = call.parentCallSid ?? call.sid;
      const callRun = runs.get(parentSid);
      if (!callRun?.waitsOnTime) return refused('conflict', `${parentSid} is not waiting on time (no Pause or ringing Dial).`);
      const settled = callRun.settled();
      callRun.advance();
      await settled;
      const parent = store.findCall(parentSid)?.call ?? call;
      await legs.drained(parent);
      return done(viewOf(account, parent));
    },

    view(sid: string) {
      const found = store.findCall(sid);
      return found ? viewOf(found.account, found.call) : undefined;
    },

    /** A conference with its participants (those gone too), what each heard, and its status callbacks, once they are answered. */
    async conferenceView(sid: string) {
      for (const account of store.accounts) {
        const conference = account.conferences.find((c) => c.sid === sid || (c.friendlyName === sid && c.status !== 'completed'));
        if (conference) {
          await conferenceParts.drained(conference.sid);
          return conference;
        }
      }
      return undefined;
    },

    conferences: conferenceControls,

    /** After a reset: runs of calls that no longer exist stop. */
    reset() {
      for (const callRun of runs.values()) {
        callRun.callerGone = true;
        callRun.wake();
      }
      legs.forget();
      conferenceParts.forget();
    },

    stop() {
      events.off('callUpdate', onUpdate);
      stopped.abort();
      for (const callRun of runs.values()) {
        callRun.callerGone = true;
        callRun.wake();
      }
    },
  };
}

export type Voice = ReturnType<typeof startVoice>;

/** Parameters only Twilio sets: a client's params of these names are dropped. */
const RESERVED_PARAMS = new Set(['AccountSid', 'ApiVersion', 'ApplicationSid', 'CallSid', 'CallStatus', 'Caller', 'Direction']);

function withoutReserved(params: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(params).filter(([name]) => !RESERVED_PARAMS.has(name)));
}
