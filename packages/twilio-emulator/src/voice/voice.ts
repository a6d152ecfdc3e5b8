import type { CallUpdate, EmulatorEvents } from '../events';
import type { Logger } from '../log';
import { type AccountRecord, type CallEvent, type CallRecord, now, type WebhookMethod } from '../model';
import { done, type Outcome, refused } from '../outcome';
import type { EmulatorStore } from '../store';
import { deliverWebhook } from '../webhooks';
import { type CallLegs, callDuration, callLegs, callParams, isFinal } from './call-legs';
import { CallRun } from './call-run';
import { type CallView, callView } from './representation';
import { parseTwiml, type TwimlElement } from './twiml';

/** Twilio reads TwiML documents up to 64 KB. */
const MAX_TWIML_CHARS = 64 * 1024;
const E164 = /^\+[1-9]\d{6,14}$/;
/** What a caller hears when the product's TwiML cannot be had. */
const APPLICATION_ERROR = 'We are sorry, an application error has occurred. Goodbye.';
/** `<Dial timeout>`: 30 seconds unless given, 5 to 600. https://www.twilio.com/docs/voice/twiml/dial#timeout */
const DIAL_TIMEOUT = { default: 30, min: 5, max: 600 };
/** Twilio's debugger codes the emulator reports. https://www.twilio.com/docs/api/errors */
const ERRORS = {
  retrieval: 11200,
  parse: 12100,
  schema: 12200,
  invalidCallerId: 13214,
  invalidNumber: 13223,
} as const;

type Step = 'next' | 'stop' | TwimlElement[];

/**
 * Calls: an outside phone calling an account's number, a Voice SDK client calling out through the
 * account's TwiML application, and the TwiML interpreter that carries out what the product answers
 * (`<Say>`, `<Pause>`, `<Hangup>`, `<Reject>`, `<Dial>` with `<Client>` and `<Number>` legs). Time-based
 * parts (a Pause, a Dial's ring timeout) last their Twilio seconds times `timeScale(accountSid)`, and
 * `advance` ends the current one at once, so tests never wait for real seconds.
 */
export function startVoice(options: {
  store: EmulatorStore;
  events: EmulatorEvents;
  log: Logger;
  timeScale: (accountSid: string) => number;
}) {
  const { store, events, log, timeScale } = options;
  const stopped = new AbortController();
  const legs: CallLegs = callLegs({ store, events, log, signal: stopped.signal });
  /** The runs of calls under way, by the SID of the call whose TwiML runs (the parent). */
  const runs = new Map<string, CallRun>();

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
  }

  /** The Call resource's updates: hang up, cancel, or carry out other TwiML. */
  const onUpdate = (account: AccountRecord, call: CallRecord, update: CallUpdate) => {
    const parentSid = call.parentCallSid ?? call.sid;
    const callRun = runs.get(parentSid);
    if (update.status === 'canceled' && call.answeredAt) return;
    if (call.parentCallSid) {
      // A leg ended through the API ends as if its party hung up; a leg cannot be redirected here.
      if (update.status) legs.setStatus(account, call, call.answeredAt ? 'completed' : 'canceled');
    } else if (update.status) {
      if (callRun) callRun.callerGone = true;
      else legs.setStatus(account, call, call.answeredAt ? 'completed' : 'canceled');
    } else if (callRun) {
      callRun.redirect = { twiml: update.twiml, url: update.url, method: update.method };
    }
    callRun?.wake();
  };
  events.on('callUpdate', onUpdate);

  const gone = (call: CallRecord) => stopped.signal.aborted || !store.findCall(call.sid);

  function answerCall(account: AccountRecord, call: CallRecord, by?: string) {
    if (call.status === 'ringing' || call.status === 'queued' || call.status === 'initiated')
      legs.setStatus(account, call, 'in-progress', by);
  }

  function reportError(account: AccountRecord, call: CallRecord, code: number, message: string) {
    log.warn(`call ${call.sid}: ${code} ${message}`);
    legs.change(account, call, (c) => c.errors.push({ code, message, at: now(store.clock) }));
  }

  /**
   * Requests a TwiML document for the call and reads it. A failed request (no answer, 4xx/5xx) is
   * Twilio's 11200 and moves to the fallback URL when there is one; an unreadable document is 12100.
   */
  async function fetchTwiml(
    account: AccountRecord,
    call: CallRecord,
    purpose: 'voice-url' | 'dial-action' | 'redirect',
    target: { url: string; method: WebhookMethod; fallback?: { url: string; method: WebhookMethod } },
    extra: Record<string, string>,
  ): Promise<{ verbs: TwimlElement[]; url: string } | undefined> {
    const attempts = [
      { ...target, purpose },
      ...(target.fallback?.url ? [{ ...target.fallback, purpose: 'voice-fallback-url' as const }] : []),
    ];
    for (const attempt of attempts) {
      const params = { ...callParams(account, call), ...extra };
      const answer = await deliverWebhook({
        url: attempt.url,
        method: attempt.method,
        params,
        authToken: account.authToken,
        signal: stopped.signal,
        keepChars: MAX_TWIML_CHARS,
        lost: store.faults.takeWebhookDrop(account.sid),
        clock: store.clock,
      });
      if (gone(call)) return undefined;
      legs.change(account, call, (c) => c.twiml.push({ ...answer, purpose: attempt.purpose, params }));
      if (answer.status === null || answer.status >= 400) {
        reportError(
          account,
          call,
          ERRORS.retrieval,
          `HTTP retrieval failure: ${attempt.url} answered ${answer.status ?? answer.body}`,
        );
        continue;
      }
      const document = parseTwiml(answer.body);
      if (!document.ok) {
        reportError(account, call, ERRORS.parse, `Document parse failure: ${document.error}`);
        continue;
      }
      return { verbs: document.verbs, url: attempt.url };
    }
    return undefined;
  }

  /** Runs the call's TwiML from its first document to its end, then ends the call. */
  async function run(
    account: AccountRecord,
    call: CallRecord,
    first: { url: string; method: WebhookMethod; fallback?: { url: string; method: WebhookMethod } },
    extra: Record<string, string>,
    callRun: CallRun,
  ) {
    try {
      const document = await fetchTwiml(account, call, 'voice-url', first, extra);
      if (!document) {
        applicationError(account, call);
      } else {
        let verbs = document.verbs;
        let base = document.url;
        callRun.documentUrl = base;
        for (let i = 0; !callRun.callerGone && !isFinal(call) && !gone(call); ) {
          if (callRun.redirect) {
            const redirected = await redirectTo(account, call, callRun);
            if (!redirected) break;
            verbs = redirected;
            i = 0;
            base = callRun.documentUrl ?? base;
            continue;
          }
          const verb = verbs[i++];
          if (!verb) break;
          const step = await execute(account, call, callRun, verb, base);
          if (step === 'stop') break;
          if (step !== 'next') {
            verbs = step;
            i = 0;
            base = callRun.documentUrl ?? base;
          }
        }
      }
      if (!gone(call)) {
        // The end of the document hangs up; a call no verb answered is answered first, as Twilio does.
        if (callRun.callerGone) legs.setStatus(account, call, call.answeredAt ? 'completed' : 'canceled');
        else {
          answerCall(account, call);
          legs.setStatus(account, call, 'completed');
        }
      }
    } catch (error) {
      log.error(`call ${call.sid}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!gone(call)) legs.setStatus(account, call, call.answeredAt ? 'completed' : 'failed');
    } finally {
      runs.delete(call.sid);
      callRun.end();
    }
  }

  /** Takes the TwiML the call was redirected to: given as a document, or fetched from a URL. */
  async function redirectTo(account: AccountRecord, call: CallRecord, callRun: CallRun): Promise<TwimlElement[] | undefined> {
    const redirect = callRun.redirect ?? {};
    callRun.redirect = undefined;
    if (redirect.twiml !== undefined) {
      const document = parseTwiml(redirect.twiml);
      if (document.ok) return document.verbs;
      reportError(account, call, ERRORS.parse, `Document parse failure: ${document.error}`);
    } else if (redirect.url) {
      const document = await fetchTwiml(account, call, 'redirect', { url: redirect.url, method: redirect.method ?? 'POST' }, {});
      if (document) {
        callRun.documentUrl = document.url;
        return document.verbs;
      }
    }
    applicationError(account, call);
    return undefined;
  }

  function applicationError(account: AccountRecord, call: CallRecord) {
    answerCall(account, call);
    legs.change(account, call, (c) => c.said.push(APPLICATION_ERROR));
  }

  async function execute(
    account: AccountRecord,
    call: CallRecord,
    callRun: CallRun,
    verb: TwimlElement,
    base: string,
  ): Promise<Step> {
    switch (verb.name) {
      case 'Say':
        answerCall(account, call);
        legs.change(account, call, (c) => c.said.push(verb.text));
        return 'next';
      case 'Pause': {
        answerCall(account, call);
        const seconds = wholeNumber(verb.attributes.length, 1, 0, 3600);
        const deadline = Date.now() + seconds * 1000 * timeScale(account.sid);
        while (!callRun.callerGone && !callRun.redirect && (await callRun.sleep(Math.max(0, deadline - Date.now()))) === 'wake');
        return callRun.callerGone ? 'stop' : 'next';
      }
      case 'Hangup':
        answerCall(account, call);
        return 'stop';
      case 'Reject':
        // Only a first verb can refuse the call unanswered: busy or no-answer as `reason` says.
        // https://www.twilio.com/docs/voice/twiml/reject
        if (!call.answeredAt) legs.setStatus(account, call, verb.attributes.reason === 'busy' ? 'busy' : 'no-answer');
        return 'stop';
      case 'Dial':
        return dial(account, call, callRun, verb, base);
      default:
        answerCall(account, call);
        reportError(account, call, ERRORS.schema, `<${verb.name}> is not carried out by the emulator; skipped.`);
        return 'next';
    }
  }

  /**
   * `<Dial>`: makes one child leg per noun (`outbound-dial`, ringing all at once), bridges the first
   * to answer and cancels the rest, ends the unanswered legs `no-answer` when the timeout passes,
   * then requests the `action` with DialCallStatus, DialCallSid, DialCallDuration and DialBridged
   * and carries out what it answers (or goes on with the next verb without an action). With
   * `answerOnBridge` the caller's call stays ringing until a leg answers.
   * https://www.twilio.com/docs/voice/twiml/dial#action
   * https://www.twilio.com/docs/voice/twiml/client
   */
  async function dial(
    account: AccountRecord,
    parent: CallRecord,
    callRun: CallRun,
    verb: TwimlElement,
    base: string,
  ): Promise<Step> {
    const { attributes } = verb;
    if (attributes.answerOnBridge !== 'true') answerCall(account, parent);
    const timeout = wholeNumber(attributes.timeout, DIAL_TIMEOUT.default, DIAL_TIMEOUT.min, DIAL_TIMEOUT.max);
    const callerId = attributes.callerId?.trim() || undefined;
    const nouns = verb.children.filter((n) => n.name === 'Client' || n.name === 'Number');
    if (nouns.length === 0 && verb.text) nouns.push({ name: 'Number', attributes: {}, children: [], text: verb.text });

    const dialled: CallRecord[] = [];
    for (const noun of nouns) {
      const identity = noun.name === 'Client' ? (noun.children.find((c) => c.name === 'Identity')?.text ?? noun.text) : '';
      const to = noun.name === 'Client' ? `client:${identity}` : noun.text;
      const from = callerId ?? parent.from;
      const subscribed = (noun.attributes.statusCallbackEvent ?? '').split(/[\s,]+/).filter(isCallEvent);
      const leg = legs.create(account, {
        parentCallSid: parent.sid,
        direction: 'outbound-dial',
        from,
        to,
        status: 'queued',
        parameters: Object.fromEntries(
          noun.children.filter((c) => c.name === 'Parameter').map((c) => [c.attributes.name ?? '', c.attributes.value ?? '']),
        ),
        statusCallback: noun.attributes.statusCallback ? new URL(noun.attributes.statusCallback, base).toString() : '',
        statusCallbackMethod: noun.attributes.statusCallbackMethod?.toUpperCase() === 'GET' ? 'GET' : 'POST',
        // A statusCallback without events hears of `completed` only.
        statusCallbackEvents: subscribed.length ? subscribed : ['completed'],
      });
      dialled.push(leg);
      const problem =
        noun.name === 'Number' && !E164.test(to)
          ? ([ERRORS.invalidNumber, `Dial: Invalid phone number format: ${to}`] as const)
          : noun.name === 'Number' && !E164.test(from)
            ? ([ERRORS.invalidCallerId, `Dial: Invalid callerId value: ${from}`] as const)
            : noun.name === 'Client' && !identity
              ? ([ERRORS.schema, '<Client> without an identity'] as const)
              : undefined;
      if (problem) {
        reportError(account, parent, problem[0], problem[1]);
        legs.setStatus(account, leg, 'failed');
      } else {
        legs.setStatus(account, leg, 'initiated');
        legs.setStatus(account, leg, 'ringing');
      }
    }

    // Ringing: until one answers, all end, the caller hangs up, or the timeout passes.
    const deadline = Date.now() + timeout * 1000 * timeScale(account.sid);
    let timedOut = false;
    const answered = () => dialled.find((leg) => leg.answeredAt);
    while (!callRun.callerGone && !callRun.redirect && !answered() && !timedOut && !dialled.every(isFinal)) {
      timedOut = (await callRun.sleep(Math.max(0, deadline - Date.now()))) === 'time';
    }
    const winner = answered();
    for (const leg of dialled) {
      if (leg !== winner) legs.setStatus(account, leg, timedOut && !callRun.callerGone && !winner ? 'no-answer' : 'canceled');
    }

    if (winner) {
      answerCall(account, parent, winner.to);
      // Bridged: until either side hangs up.
      while (!callRun.callerGone && !callRun.redirect && !isFinal(winner)) await callRun.sleep();
      legs.setStatus(account, winner, 'completed');
    }

    const dialCallStatus = winner
      ? 'completed'
      : callRun.callerGone
        ? 'canceled'
        : dialled.some((leg) => leg.status === 'busy')
          ? 'busy'
          : dialled.length > 0 && dialled.every((leg) => leg.status === 'failed')
            ? 'failed'
            : 'no-answer';
    const action = attributes.action;
    // Redirected away from the Dial: its action is not requested.
    if (callRun.redirect) return 'next';
    if (!action) return callRun.callerGone ? 'stop' : 'next';

    // Gone with a reset: nobody is left to tell.
    if (gone(parent)) return 'stop';
    const dialCallSid = winner?.sid ?? (dialled.length === 1 ? dialled[0]?.sid : undefined);
    const url = new URL(action, base).toString();
    const document = await fetchTwiml(
      account,
      parent,
      'dial-action',
      { url, method: attributes.method?.toUpperCase() === 'GET' ? 'GET' : 'POST' },
      {
        // The caller may have gone: the action still hears of it, and what it answers is not carried out.
        CallStatus: callRun.callerGone ? (parent.answeredAt ? 'completed' : 'canceled') : parent.status,
        DialCallStatus: dialCallStatus,
        DialBridged: winner ? 'true' : 'false',
        ...(dialCallSid ? { DialCallSid: dialCallSid } : {}),
        ...(winner ? { DialCallDuration: String(callDuration(winner, store.clock)) } : {}),
      },
    );
    if (callRun.callerGone || gone(parent)) return 'stop';
    if (!document) {
      applicationError(account, parent);
      return 'stop';
    }
    callRun.documentUrl = document.url;
    return document.verbs;
  }

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
    void run(account, call, first, extra, callRun);
    await settled;
    await legs.drained(call);
    return callView(account, call);
  }

  /** Waits until the run has acted on a change, and the callbacks it led to have been answered. */
  async function afterChange(account: AccountRecord, call: CallRecord) {
    const parentSid = call.parentCallSid ?? call.sid;
    const callRun = runs.get(parentSid);
    if (callRun) {
      const settled = callRun.settled();
      callRun.wake();
      await settled;
    }
    const parent = store.findCall(parentSid)?.call ?? call;
    await legs.drained(parent);
    return callView(account, parent);
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
      const ringing = call.parentCallSid ? [call] : childrenOf(account, call).filter((leg) => leg.status === 'ringing');
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
      const leg = call.parentCallSid
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
      return done(callView(account, parent ?? call));
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
      return done(callView(account, parent));
    },

    view(sid: string) {
      const found = store.findCall(sid);
      return found ? callView(found.account, found.call) : undefined;
    },

    /** After a reset: runs of calls that no longer exist stop. */
    reset() {
      for (const callRun of runs.values()) {
        callRun.callerGone = true;
        callRun.wake();
      }
      legs.forget();
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

function isCallEvent(value: string): value is CallEvent {
  return value === 'initiated' || value === 'ringing' || value === 'answered' || value === 'completed';
}

/** A whole-number attribute within bounds; a missing or unreadable one takes the default. */
function wholeNumber(value: string | undefined, fallback: number, min: number, max: number): number {
  const number = value === undefined ? Number.NaN : Number(value);
  if (!Number.isInteger(number)) return fallback;
  return Math.min(max, Math.max(min, number));
}
