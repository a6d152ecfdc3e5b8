import type { CallMedia } from '../media/media-session';
import { type Outcome, REFUSAL_STATUS } from '../outcome';
import type { EmulatorStore } from '../store';
import { verifyAccessToken } from './access-token';
import type { Voice } from './voice';

const E164 = /^\+[1-9]\d{6,14}$/;
/**
 * A client identity: up to 256 characters, without spaces, delimiters or unwise characters.
 * https://www.twilio.com/docs/voice/twiml/client
 */
const IDENTITY = /^[\w.@:+-]{1,256}$/;

export interface ControlAnswer {
  status: number;
  body: unknown;
}

/**
 * The voice controls under `/_emulator/`: a phone calls a number, a client calls out, someone
 * answers, hangs up or presses digits, time passes; a call's whole story; a conference's (by SID or
 * the name of one under way); Access Token checks.
 * Answers undefined for paths that are not the voice controls'.
 */
export async function answerVoiceControl(
  services: { store: EmulatorStore; voice: Voice; callMedia?: CallMedia },
  method: string,
  path: string,
  input: Record<string, unknown> | undefined,
): Promise<ControlAnswer | undefined> {
  const { store, voice } = services;
  const needsPost = () => (method === 'POST' ? undefined : problem(405, `${method} is not allowed here.`));
  if (path === '/_emulator/tokens/verify') {
    if (method !== 'POST') return problem(405, `${method} is not allowed here.`);
    if (typeof input?.token !== 'string') return problem(400, 'Send {"token": "<Access Token>"}.');
    const check = await verifyAccessToken(store, input.token);
    return { status: 200, body: check };
  }
  if (path === '/_emulator/calls') {
    const refused = needsPost();
    if (refused) return refused;
    const { from, to } = input ?? {};
    if (typeof from !== 'string' || !E164.test(from))
      return problem(400, 'from must be the calling phone in E.164, e.g. "+14155550199".');
    if (typeof to !== 'string' || !E164.test(to))
      return problem(400, 'to must be a voice number of an emulator account in E.164.');
    return reply(await voice.callFromPhone({ from, to }), 201);
  }
  const client = /^\/_emulator\/clients\/([^/]+)\/calls$/.exec(path);
  if (client) {
    const refused = needsPost();
    if (refused) return refused;
    const identity = decodeURIComponent(client[1] ?? '');
    if (!IDENTITY.test(identity)) return problem(400, `${identity} is not a client identity Twilio accepts.`);
    const params = input?.params ?? {};
    if (typeof params !== 'object' || params === null || Object.values(params).some((v) => typeof v !== 'string'))
      return problem(400, 'params must be an object of strings, e.g. {"To": "+14155550199"}.');
    let accountSid = input?.accountSid;
    let applicationSid = input?.applicationSid;
    if (input?.token !== undefined) {
      if (typeof input.token !== 'string') return problem(400, 'token must be a string.');
      // As Twilio does: the client's Access Token says who it is and which application its calls reach.
      const check = await verifyAccessToken(store, input.token);
      if (!check.valid) return { status: 401, body: { error: check.error.message, code: check.error.code } };
      if (check.identity !== identity) return problem(403, `The token is for ${check.identity}, not ${identity}.`);
      if (!check.applicationSid) return problem(403, 'The token has no outgoing application: it may not call out.');
      accountSid = check.accountSid;
      applicationSid = check.applicationSid;
    }
    if (typeof accountSid !== 'string' || typeof applicationSid !== 'string')
      return problem(
        400,
        'Send {"token": "<Access Token>", "params": {…}}, or accountSid and applicationSid instead of the token.',
      );
    return reply(
      await voice.callFromClient({ accountSid, applicationSid, identity, params: params as Record<string, string> }),
      201,
    );
  }
  const conference = /^\/_emulator\/conferences\/([^/]+)$/.exec(path);
  if (conference) {
    if (method !== 'GET') return problem(405, `${method} is not allowed here.`);
    const name = decodeURIComponent(conference[1] ?? '');
    const view = await voice.conferenceView(name);
    return view ? { status: 200, body: view } : problem(404, `No conference ${name} in the emulator.`);
  }
  const call = /^\/_emulator\/calls\/([^/]+)(?:\/(answer|hangup|digits|advance|speak))?$/.exec(path);
  if (!call) return undefined;
  const [, sid = '', action] = call;
  if (!action) {
    if (method !== 'GET') return problem(405, `${method} is not allowed here.`);
    const view = voice.view(sid);
    if (!view) return problem(404, `No call ${sid} in the emulator.`);
    // The RTP each side of the call sent and received (the media of a leg is its parent call's).
    return { status: 200, body: { ...view, media: services.callMedia?.stats(view.parent_call_sid ?? view.sid) ?? {} } };
  }
  const refused = needsPost();
  if (refused) return refused;
  const by = input?.by;
  if (by !== undefined && typeof by !== 'string') return problem(400, 'by must be "client:{identity}" or a number in E.164.');
  switch (action) {
    case 'answer':
      return reply(await voice.answer(sid, by));
    case 'hangup':
      return reply(await voice.hangUp(sid, by));
    case 'digits': {
      const digits = input?.digits;
      if (typeof digits !== 'string' || digits === '') return problem(400, 'Send {"digits": "1#"}.');
      return reply(await voice.pressDigits(sid, digits));
    }
    case 'speak': {
      const seconds = input?.seconds;
      if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 1 || seconds > 86_400)
        return problem(400, 'Send {"seconds": n}: how long the caller speaks, a whole number from 1 to 86400.');
      return reply(await voice.speak(sid, seconds));
    }
    default:
      return reply(await voice.advance(sid));
  }
}

/** A call placed answers 201 (created), any other change 200; a refusal its status. */
function reply<T>(outcome: Outcome<T>, status: 200 | 201 = 200): ControlAnswer {
  return outcome.ok ? { status, body: outcome.value } : problem(REFUSAL_STATUS[outcome.refusal], outcome.error);
}

function problem(status: number, message: string): ControlAnswer {
  return { status, body: { error: message } };
}
