import { describe, expect, it } from 'vitest';
import { DEFAULT_RECORDING_DISCLOSURE } from '../../shared/constants';
import type { Call } from '../../shared/contract/calls';
import { fillPath } from '../../shared/contract/route';
import { type Account, callRoute, signUp } from '../support/api';
import { endpoints } from '../support/endpoints';
import { newPhone } from '../support/sms';
import {
  answerCall,
  callFromPhone,
  emulatorCall,
  emulatorRecordings,
  hangUpCall,
  speakOnCall,
  twilioMediaContent,
} from '../support/twilio';
import { identityOf, listCalls, voiceLine } from '../support/voice';

/**
 * Call recording with consent (docs/product.md: Call recording): per inbox and for private lines,
 * the caller hears the disclosure before anyone rings, Twilio records the caller's leg from the
 * answer (the Call Recordings API), the agent on the call pauses and resumes it, and Call History
 * plays it through Switchboard's route with the company's credentials.
 */

type Line = Awaited<ReturnType<typeof voiceLine>>;

async function callWith(account: Account, callSid: string): Promise<Call> {
  const call = (await listCalls(account)).body.data.calls.find((c) => c.providerCallId === callSid);
  if (!call) throw new Error(`no call ${callSid}`);
  return call;
}

const setRecording = (account: Account, inboxId: string, enabled: boolean) =>
  callRoute(endpoints.setInboxRecording, { token: account.tokens.accessToken, params: { id: inboxId }, body: { enabled } });

const pause = (account: Account, callSid: string, paused: boolean) =>
  callRoute(endpoints.pauseCallRecording, { token: account.tokens.accessToken, params: { callId: callSid }, body: { paused } });

const recordingAudio = (account: Account, callSid: string) =>
  callRoute(endpoints.callRecordingAudio, { token: account.tokens.accessToken, params: { callId: callSid } });

async function saveCalling(account: Account, changes: Record<string, unknown>) {
  const current = await callRoute(endpoints.companySettings, { token: account.tokens.accessToken });
  const { allowedCountries, outboundCallsPerMinute } = current.body.data.settings.calling;
  return callRoute(endpoints.updateCallingSettings, {
    token: account.tokens.accessToken,
    body: { allowedCountries, outboundCallsPerMinute, ...changes },
  });
}

/** A call to the line answered by `agent`; resolves once its recording (if any) has been asked for. */
async function answeredBy(line: Line, agent: Account) {
  const call = await callFromPhone({ from: newPhone(), to: line.channel.identifier });
  await answerCall(call.sid, `client:${identityOf(agent)}`);
  await expect.poll(async () => (await callWith(line.owner, call.sid)).answeredBy?.id).toBe(agent.user.id);
  return call;
}

const closeAll = (line: Pick<Line, 'sockets'>) => Promise.all(line.sockets.map((s) => s.close()));

describe('call recording', () => {
  it('an inbox records when its owner says so: the disclosure before the ring, the caller’s leg from the answer, paused, resumed and played', async () => {
    const line = await voiceLine({ members: 2 });
    const [owner, agent] = line.agents as [Account, Account];

    // Off (the default): no disclosure, no recording, and nothing to pause.
    expect(
      (await callRoute(endpoints.getInbox, { token: owner.tokens.accessToken, params: { id: line.inbox.id } })).body.data.inbox
        .recordCalls,
    ).toBe(false);
    const unrecorded = await answeredBy(line, agent);
    expect((await emulatorCall(unrecorded.sid)).said).toEqual([]);
    expect((await pause(agent, unrecorded.sid, true)).status).toBe(409);
    await hangUpCall(unrecorded.sid);
    expect((await callWith(owner, unrecorded.sid)).recording).toBeUndefined();

    // On: only owners and admins; the inbox lists say so.
    expect((await setRecording(agent, line.inbox.id, true)).status).toBe(403);
    const on = await setRecording(owner, line.inbox.id, true);
    expect(on.status).toBe(200);
    expect(on.body.data.inbox).toMatchObject({ id: line.inbox.id, recordCalls: true, memberCount: 2, channelCount: 1 });
    const listed = await callRoute(endpoints.listInboxes, { token: owner.tokens.accessToken });
    expect(listed.body.data.inboxes.find((i) => i.id === line.inbox.id)?.recordCalls).toBe(true);

    const call = await callFromPhone({ from: newPhone(), to: line.channel.identifier });
    // The disclosure is said before the Dial rings anyone.
    const document = call.twiml.find((t) => t.purpose === 'voice-url')?.body ?? '';
    expect(document.indexOf(`<Say>${DEFAULT_RECORDING_DISCLOSURE}</Say>`)).toBeGreaterThan(-1);
    expect(document.indexOf('<Say>')).toBeLessThan(document.indexOf('<Dial'));
    expect(call.said).toEqual([DEFAULT_RECORDING_DISCLOSURE]);
    expect(await emulatorRecordings(line.twilio.accountSid)).toEqual([]);

    await answerCall(call.sid, `client:${identityOf(agent)}`);
    await expect
      .poll(async () => (await callWith(owner, call.sid)).recording)
      .toEqual({ status: 'RECORDING', paused: false, durationSeconds: 0, url: null });
    await expect.poll(async () => (await emulatorRecordings(line.twilio.accountSid)).length).toBe(1);
    const [twilioRecording] = await emulatorRecordings(line.twilio.accountSid);
    expect(twilioRecording).toMatchObject({
      call_sid: call.sid,
      status: 'in-progress',
      channels: 2,
      source: 'StartCallRecordingAPI',
    });

    // Only the agent on the call pauses it; the owner who sees the call is not on it.
    expect((await pause(owner, call.sid, true)).status).toBe(404);
    const paused = await pause(agent, call.sid, true);
    expect(paused.status).toBe(200);
    expect(paused.body.data.recording).toEqual({ status: 'PAUSED', paused: true, durationSeconds: 0, url: null });
    expect((await emulatorRecordings(line.twilio.accountSid))[0]?.status).toBe('paused');
    expect((await callWith(owner, call.sid)).recording?.paused).toBe(true);
    const resumed = await pause(agent, call.sid, false);
    expect(resumed.body.data.recording).toMatchObject({ status: 'RECORDING', paused: false });
    expect((await emulatorRecordings(line.twilio.accountSid))[0]?.status).toBe('in-progress');

    await speakOnCall(call.sid, 6);
    await hangUpCall(call.sid);
    const url = fillPath(endpoints.callRecordingAudio.path, { callId: call.sid });
    await expect.poll(async () => (await callWith(owner, call.sid)).recording?.status, { timeout: 15_000 }).toBe('COMPLETED');
    // The 6 s spoken, and the moments the test took between the answer and the hang-up (the emulator's real clock).
    const done = (await callWith(owner, call.sid)).recording;
    expect(done).toMatchObject({ status: 'COMPLETED', paused: false, url });
    expect(done?.durationSeconds).toBeGreaterThanOrEqual(6);
    expect(done?.durationSeconds).toBe(Number((await emulatorRecordings(line.twilio.accountSid))[0]?.duration));
    // Over: nothing to pause any more.
    expect((await pause(agent, call.sid, true)).status).toBe(409);

    // The audio, from Twilio with the company's credentials, kept by no cache; the same bytes.
    const audio = await recordingAudio(agent, call.sid);
    expect(audio.status).toBe(200);
    expect(audio.headers.get('cache-control')).toBe('private, no-store');
    const [completed] = await emulatorRecordings(line.twilio.accountSid);
    const original = await twilioMediaContent(line.twilio, `${completed?.media_url}.mp3`);
    expect(audio.bytes.equals(original.bytes)).toBe(true);
    expect(audio.bytes.readUInt16LE(22)).toBe(2);

    // Another company's members get 404 for all of it, in the same words as a call without one.
    const stranger = await signUp();
    expect((await setRecording(stranger, line.inbox.id, false)).status).toBe(404);
    expect((await pause(stranger, call.sid, true)).status).toBe(404);
    const theirs = await recordingAudio(stranger, call.sid);
    expect(theirs.status).toBe(404);
    expect((await recordingAudio(owner, unrecorded.sid)).body).toEqual(theirs.body);
    await closeAll(line);
  });

  it('a private line records when the company says so, with the company’s own disclosure', async () => {
    const line = await voiceLine({ members: 1, routing: 'USER' });
    const { owner } = line;
    const disclosure = 'Calls to Acme are recorded so we can train our team.';
    const saved = await saveCalling(owner, { recordPrivateLines: true, recordingDisclosure: `  ${disclosure} ` });
    expect(saved.body.data.calling).toMatchObject({ recordPrivateLines: true, recordingDisclosure: disclosure });
    const tooLong = await saveCalling(owner, { recordingDisclosure: 'x'.repeat(301) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });

    const call = await answeredBy(line, owner);
    expect((await emulatorCall(call.sid)).said).toEqual([disclosure]);
    await expect.poll(async () => (await callWith(owner, call.sid)).recording?.status).toBe('RECORDING');
    await speakOnCall(call.sid, 2);
    await hangUpCall(call.sid);
    await expect.poll(async () => (await callWith(owner, call.sid)).recording?.status, { timeout: 15_000 }).toBe('COMPLETED');
    expect((await recordingAudio(owner, call.sid)).status).toBe(200);
    await closeAll(line);
  });
});
