import { describe, expect, it } from 'vitest';
import { DEFAULT_VOICEMAIL_GREETING, MAX_VOICEMAIL_GREETING_LENGTH, VOICEMAIL_MAX_SECONDS } from '../../shared/constants';
import type { Call } from '../../shared/contract/calls';
import { fillPath } from '../../shared/contract/route';
import { type Account, callRoute, signUp, unchecked } from '../support/api';
import { endpoints } from '../support/endpoints';
import { openSocket } from '../support/realtime';
import { newPhone } from '../support/sms';
import { addTeamMember } from '../support/team';
import {
  advanceCall,
  answerCall,
  callFromPhone,
  emulatorCall,
  emulatorRecordings,
  hangUpCall,
  speakOnCall,
  twilioMediaContent,
} from '../support/twilio';
import { identityOf, listCalls, signedLine } from '../support/voice';

/**
 * Voicemail: a call nobody answers is recorded by Twilio's `<Record>` after the company's
 * greeting; the signed recording status callback keeps it on the call once, the inbox hears of it,
 * and Call History plays it through Switchboard's own route with the company's credentials.
 */

type Line = Awaited<ReturnType<typeof signedLine>>;

async function callWith(account: Account, callSid: string): Promise<Call> {
  const call = (await listCalls(account)).body.data.calls.find((c) => c.providerCallId === callSid);
  if (!call) throw new Error(`no call ${callSid}`);
  return call;
}

/** The caller leaves a message of `seconds` and hangs up; resolves once the voicemail is on the call. */
async function leaveMessage(line: Pick<Line, 'owner'>, callSid: string, seconds: number): Promise<Call> {
  await speakOnCall(callSid, seconds);
  await hangUpCall(callSid);
  await expect.poll(async () => (await callWith(line.owner, callSid)).voicemail, { timeout: 15_000 }).not.toBeNull();
  return callWith(line.owner, callSid);
}

async function saveCalling(account: Account, changes: Record<string, unknown>) {
  const current = await callRoute(endpoints.companySettings, { token: account.tokens.accessToken });
  const { allowedCountries, outboundCallsPerMinute } = current.body.data.settings.calling;
  return callRoute(endpoints.updateCallingSettings, {
    token: account.tokens.accessToken,
    body: { allowedCountries, outboundCallsPerMinute, ...changes },
  });
}

const closeAll = (line: Pick<Line, 'sockets'>) => Promise.all(line.sockets.map((s) => s.close()));

describe('voicemail', () => {
  it('a call nobody answers is recorded after the greeting; the signed callback keeps it once; Call History plays it, then shows it listened', async () => {
    const line = await signedLine(2);
    const call = await callFromPhone({ from: newPhone(), to: line.channel.identifier });
    // The ring times out: the Dial's action answers the greeting and <Record>.
    const recording = await advanceCall(call.sid);
    expect(recording.said.join(' ')).toContain(DEFAULT_VOICEMAIL_GREETING);
    const twiml = recording.twiml.find((t) => t.purpose === 'dial-action')?.body ?? '';
    expect(twiml).toContain(`maxLength="${VOICEMAIL_MAX_SECONDS}"`);
    expect(twiml).toContain('playBeep="true"');
    expect(twiml).toMatch(/action="[^"]+\/voice\/voicemail"/);
    expect(twiml).toMatch(/recordingStatusCallback="[^"]+\/voice\/recording"/);
    expect(twiml).toContain('recordingStatusCallbackEvent="completed"');

    const withVoicemail = await leaveMessage(line, call.sid, 7);
    const url = fillPath(endpoints.voicemailAudio.path, { id: withVoicemail.id });
    expect(withVoicemail).toMatchObject({
      direction: 'INBOUND',
      callStatus: 'NO_ANSWER',
      voicemail: { durationSeconds: 7, url, createdAt: expect.any(String), listened: false },
    });
    // Both members of the inbox the call rang hear of it.
    for (const socket of line.sockets) {
      const event = await socket.next('voicemail_received');
      expect(event.data).toMatchObject({ callId: withVoicemail.id, call: { voicemail: { url, listened: false } } });
    }
    // The action hung up; the callback was answered (its signature checked: the product answers 403 otherwise).
    const ended = await emulatorCall(call.sid);
    expect(ended.status).toBe('completed');
    const [twilioRecording] = await emulatorRecordings(line.twilio.accountSid);
    if (!twilioRecording) throw new Error('the emulator made no recording');
    expect(twilioRecording.callbacks.map((c) => c.status)).toEqual([200]);

    // Twilio repeats the callback: nothing changes, nobody hears of it twice.
    const repeat = {
      AccountSid: line.twilio.accountSid,
      CallSid: call.sid,
      RecordingSid: twilioRecording.sid,
      RecordingUrl: twilioRecording.media_url,
      RecordingStatus: 'completed',
      RecordingDuration: '7',
    };
    for (let i = 0; i < 2; i++) expect((await line.post('/recording', repeat)).status).toBe(200);
    expect(await callWith(line.owner, call.sid)).toEqual(withVoicemail);
    await line.sockets[0]?.beat();
    expect(line.sockets[0]?.log.filter((e) => e.type === 'voicemail_received')).toHaveLength(1);

    // The audio: Twilio's WAV, fetched with the company's credentials.
    const audio = await callRoute(endpoints.voicemailAudio, {
      params: { id: withVoicemail.id },
      token: line.owner.tokens.accessToken,
    });
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toBe('audio/wav');
    // Nothing of it outlives the session in the browser (docs/security.md: Media in the browser).
    expect(audio.headers.get('cache-control')).toBe('private, no-store');
    expect(audio.bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(audio.bytes.subarray(8, 12).toString('latin1')).toBe('WAVE');
    const original = await twilioMediaContent(line.twilio, `${twilioRecording.media_url}.wav`);
    expect(audio.bytes.equals(original.bytes)).toBe(true);
    expect((await callWith(line.owner, call.sid)).voicemail).toMatchObject({ listened: true });
    // Played again (by the agent): still there, still listened.
    const again = await callRoute(endpoints.voicemailAudio, {
      params: { id: withVoicemail.id },
      token: line.agents[1]?.tokens.accessToken,
    });
    expect(again.status).toBe(200);
    expect((await callWith(line.owner, call.sid)).voicemail).toMatchObject({ listened: true });

    // Another company: not found.
    const other = await signUp();
    const refused = await callRoute(endpoints.voicemailAudio, {
      params: { id: withVoicemail.id },
      token: other.tokens.accessToken,
    });
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    await closeAll(line);
  });

  it('Call History’s voicemail filter lists only calls with one; a call without one has no audio', async () => {
    const line = await signedLine(1);
    const missed = await callFromPhone({ from: newPhone(), to: line.channel.identifier });
    await advanceCall(missed.sid);
    const withVoicemail = await leaveMessage(line, missed.sid, 3);

    const taken = await callFromPhone({ from: newPhone(), to: line.channel.identifier });
    await answerCall(taken.sid, `client:${identityOf(line.owner)}`);
    await hangUpCall(taken.sid);
    await expect.poll(async () => (await callWith(line.owner, taken.sid)).callStatus).toBe('COMPLETED');
    const answered = await callWith(line.owner, taken.sid);
    expect(answered.voicemail).toBeNull();

    const ids = async (query: Record<string, string>) => (await listCalls(line.owner, query)).body.data.calls.map((c) => c.id);
    expect(await ids({ voicemail: 'true' })).toEqual([withVoicemail.id]);
    expect(await ids({ voicemail: 'true', status: 'NO_ANSWER' })).toEqual([withVoicemail.id]);
    expect(await ids({ voicemail: 'true', status: 'COMPLETED' })).toEqual([]);
    expect((await ids({ voicemail: 'false' })).sort()).toEqual([withVoicemail.id, answered.id].sort());
    expect((await ids({})).sort()).toEqual([withVoicemail.id, answered.id].sort());
    const bad = await listCalls(line.owner, { voicemail: unchecked('maybe') });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('voicemail must be true or false');

    const none = await callRoute(endpoints.voicemailAudio, { params: { id: answered.id }, token: line.owner.tokens.accessToken });
    expect(none.status).toBe(404);
    expect(
      (await callRoute(endpoints.voicemailAudio, { params: { id: 'no-such-call' }, token: line.owner.tokens.accessToken }))
        .status,
    ).toBe(404);
    await closeAll(line);
  });

  it('an unassigned number takes a voicemail at once with the company’s greeting, told to the owner and admins only', async () => {
    const line = await signedLine(1);
    const [ownerSocket] = line.sockets;
    const admin = await addTeamMember(line.owner, { role: 'ADMIN', name: 'Ada Admin' });
    const agent = await addTeamMember(line.owner, { name: 'Alan Agent' });
    const [adminSocket, agentSocket] = await Promise.all([openSocket(admin), openSocket(agent)]);
    await callRoute(endpoints.updateChannelRouting, {
      params: { id: line.channel.id },
      token: line.owner.tokens.accessToken,
      body: { routingType: 'UNASSIGNED', routingTargetId: null },
    });
    const saved = await saveCalling(line.owner, { voicemailGreeting: '  Thanks for calling Acme. Leave us a message.  ' });
    expect(saved.status).toBe(200);
    expect(saved.body.data.calling.voicemailGreeting).toBe('Thanks for calling Acme. Leave us a message.');

    const call = await callFromPhone({ from: newPhone(), to: line.channel.identifier });
    expect(call.legs).toEqual([]);
    expect(call.said).toEqual(['Thanks for calling Acme. Leave us a message.']);
    const left = await leaveMessage(line, call.sid, 2);
    expect(left).toMatchObject({ callStatus: 'NO_ANSWER', voicemail: { durationSeconds: 2, listened: false } });
    expect((await ownerSocket?.next('voicemail_received'))?.data.callId).toBe(left.id);
    expect((await adminSocket.next('voicemail_received')).data.callId).toBe(left.id);
    await agentSocket.beat();
    expect(agentSocket.log.some((e) => e.type === 'voicemail_received')).toBe(false);
    await Promise.all([...line.sockets, adminSocket, agentSocket].map((s) => s.close()));
  });
});

describe('the voicemail greeting (calling settings)', () => {
  it('is stored trimmed, blank means the default, left out it stays; too long or not text is refused', async () => {
    const owner = await signUp();
    const greeting = async () =>
      (await callRoute(endpoints.companySettings, { token: owner.tokens.accessToken })).body.data.settings.calling
        .voicemailGreeting;
    expect(await greeting()).toBeNull();
    expect((await saveCalling(owner, { voicemailGreeting: '  Hello, leave a message.  ' })).status).toBe(200);
    expect(await greeting()).toBe('Hello, leave a message.');
    // Left out: unchanged.
    expect((await saveCalling(owner, {})).body.data.calling.voicemailGreeting).toBe('Hello, leave a message.');
    expect(await greeting()).toBe('Hello, leave a message.');
    // Blank or null: the default again.
    expect((await saveCalling(owner, { voicemailGreeting: '   ' })).body.data.calling.voicemailGreeting).toBeNull();
    expect((await saveCalling(owner, { voicemailGreeting: 'Back soon' })).status).toBe(200);
    expect((await saveCalling(owner, { voicemailGreeting: null })).body.data.calling.voicemailGreeting).toBeNull();

    const tooLong = await saveCalling(owner, { voicemailGreeting: 'x'.repeat(MAX_VOICEMAIL_GREETING_LENGTH + 1) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.details?.fields).toEqual({
      voicemailGreeting: `Voicemail greeting can be at most ${MAX_VOICEMAIL_GREETING_LENGTH} characters`,
    });
    expect((await saveCalling(owner, { voicemailGreeting: 42 })).status).toBe(400);
    expect(await greeting()).toBeNull();

    // An agent may not change it.
    const agent = await addTeamMember(owner);
    expect((await saveCalling(agent, { voicemailGreeting: 'Mine now' })).status).toBe(403);
    expect(await greeting()).toBeNull();
  });
});
