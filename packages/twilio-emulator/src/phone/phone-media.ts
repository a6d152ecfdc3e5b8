import type { CallMedia, MediaEngine } from '../media/media-session';
import type { EmulatorStore } from '../store';
import { isFinal } from '../voice/call-legs';

/** SDP offers are a few kilobytes; this is far above any a browser makes. */
const MAX_SDP_CHARS = 64 * 1024;

/**
 * `POST /_emulator/phone/media {callSid, sdp}`: the phone simulator page's WebRTC offer for the call it
 * placed or answered. The emulator answers it and attaches the page as the call's 'phone' side, so it
 * hears the tone alone and the product's softphone once that side is attached too; `joined` keeps the
 * root calls whose media ends with them. Answers undefined for other paths.
 */
export async function answerPhoneMedia(
  services: { store: EmulatorStore; mediaEngine: MediaEngine; callMedia: CallMedia; joined: Set<string> },
  method: string,
  path: string,
  body: string,
): Promise<{ status: number; body: unknown } | undefined> {
  if (path !== '/_emulator/phone/media') return undefined;
  if (method !== 'POST') return problem(405, `${method} is not allowed here.`);
  const input = parseJson(body);
  const { callSid, sdp } = input ?? {};
  if (typeof callSid !== 'string' || typeof sdp !== 'string' || !sdp.startsWith('v=0') || sdp.length > MAX_SDP_CHARS)
    return problem(400, 'Send {"callSid": "CA…", "sdp": "<the page\'s SDP offer>"}.');
  const found = services.store.findCall(callSid);
  if (!found) return problem(404, `No call ${callSid} in the emulator.`);
  if (isFinal(found.call)) return problem(409, `The call ${callSid} has ended.`);
  let answer: Awaited<ReturnType<MediaEngine['answer']>>;
  try {
    answer = await services.mediaEngine.answer(sdp);
  } catch (error) {
    return problem(400, `The SDP offer could not be answered: ${error instanceof Error ? error.message : String(error)}`);
  }
  // The call may have ended while the offer was being answered.
  if (isFinal(found.call)) {
    await answer.session.close();
    return problem(409, `The call ${callSid} has ended.`);
  }
  const rootSid = found.call.parentCallSid ?? found.call.sid;
  services.callMedia.attach(rootSid, 'phone', answer.session);
  services.joined.add(rootSid);
  return { status: 200, body: { sdp: answer.answerSdp } };
}

function parseJson(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function problem(status: number, message: string) {
  return { status, body: { error: message } };
}
