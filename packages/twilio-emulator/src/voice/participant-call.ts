import type { AccountRecord, CallRecord, ConferenceRecord, ParticipantRecord, WebhookMethod } from '../model';
import { done, type Outcome } from '../outcome';
import { isFinal } from './call-legs';
import { CallRun } from './call-run';
import type { JoinOptions } from './conference-fields';
import type { Conferences } from './conferences';
import { run } from './interpreter';
import { gone, type VoiceContext, wholeNumber } from './voice-context';

/** `Timeout` of a participant dialled through the API: 60 s unless given, 5 to 600. */
const PARTICIPANT_TIMEOUT = { default: 60, min: 5, max: 600 };

export interface DialIn extends JoinOptions {
  from: string;
  to: string;
  timeout: string | null;
  callStatusCallback: string;
  callStatusCallbackMethod: WebhookMethod;
  callStatusCallbackEvents: ('initiated' | 'ringing' | 'answered' | 'completed')[];
}

/**
 * The Participants resource dials a new participant: a call (`outbound-api`) rings `To` for
 * `Timeout` seconds and joins the conference when answered. Answers the participant as created
 * (`queued`); the conference is made if none under way has that name.
 */
export function dialIn(
  ctx: VoiceContext,
  conferences: Conferences,
  account: AccountRecord,
  nameOrSid: string,
  input: DialIn,
): Outcome<{ conference: ConferenceRecord; participant: ParticipantRecord }> {
  const opened = conferences.openFor(account, nameOrSid);
  if (!opened.ok) return opened;
  const conference = opened.value;
  const call = ctx.legs.create(account, {
    direction: 'outbound-api',
    from: input.from,
    to: input.to,
    status: 'queued',
    statusCallback: input.callStatusCallback,
    statusCallbackMethod: input.callStatusCallbackMethod,
    statusCallbackEvents: input.callStatusCallbackEvents.length ? input.callStatusCallbackEvents : ['completed'],
  });
  const options = { ...input, name: conference.friendlyName };
  const participant = conferences.admit(conference, call.sid, options);
  const created = { ...participant, heard: [] };
  const timeout = wholeNumber(
    input.timeout ?? undefined,
    PARTICIPANT_TIMEOUT.default,
    PARTICIPANT_TIMEOUT.min,
    PARTICIPANT_TIMEOUT.max,
  );
  void ring(ctx, conferences, account, call, participant, options, timeout);
  return done({ conference, participant: created });
}

/** A participant's own call: rings, joins once answered, and stays until it leaves; redirected, it carries out its TwiML. */
async function ring(
  ctx: VoiceContext,
  conferences: Conferences,
  account: AccountRecord,
  call: CallRecord,
  participant: ParticipantRecord,
  options: JoinOptions,
  timeout: number,
) {
  const callRun = new CallRun(call.sid);
  ctx.runs.set(call.sid, callRun);
  let handedOver = false;
  try {
    ctx.legs.setStatus(account, call, 'initiated');
    ctx.legs.setStatus(account, call, 'ringing');
    ctx.store.change(() => {
      participant.status = 'ringing';
    });
    const deadline = Date.now() + timeout * 1000 * ctx.timeScale(account.sid);
    let timedOut = false;
    // Removed while it rang (the participant was deleted): it stops ringing.
    const wanted = () => participant.status === 'ringing';
    while (!callRun.callerGone && !call.answeredAt && !isFinal(call) && !timedOut && wanted())
      timedOut = (await callRun.sleep(Math.max(0, deadline - Date.now()))) === 'time';
    if (call.answeredAt && !callRun.callerGone && !isFinal(call) && wanted()) {
      conferences.join(account, call, options, participant);
      while (!callRun.callerGone && !callRun.redirect && !isFinal(call) && participant.status === 'connected')
        await callRun.sleep();
      conferences.leave(account, call.sid, 'left');
      if (callRun.redirect && !callRun.callerGone && !isFinal(call) && !gone(ctx, call)) {
        // Redirected out of the conference (a transfer): the interpreter carries out its new TwiML.
        handedOver = true;
        await run(ctx, account, call, { url: '', method: 'POST' }, {}, callRun);
        return;
      }
      ctx.legs.setStatus(account, call, 'completed');
    } else {
      conferences.leave(account, call.sid, 'left');
      if (!isFinal(call)) ctx.legs.setStatus(account, call, timedOut && !callRun.callerGone ? 'no-answer' : 'canceled');
    }
  } catch (error) {
    ctx.log.error(`participant ${call.sid}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    if (!gone(ctx, call)) ctx.legs.setStatus(account, call, call.answeredAt ? 'completed' : 'failed');
  } finally {
    if (!handedOver) {
      ctx.runs.delete(call.sid);
      callRun.end();
    }
  }
}

/** What the REST API's Conferences and Participants resources work with. */
export type ConferenceControls = Conferences & {
  dialIn(account: AccountRecord, nameOrSid: string, input: DialIn): ReturnType<typeof dialIn>;
};
