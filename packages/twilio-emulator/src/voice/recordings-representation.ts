import { type AccountRecord, type CallRecordingRecord, type RecordingRecord, rfc2822 } from '../model';
import { API_VERSION, accountPath } from '../representation';

/** A recording's path without extension: its audio (WAV); `.json` its resource, `.wav`/`.mp3` its audio. */
export const recordingPath = (accountSid: string, recordingSid: string) =>
  `${accountPath(accountSid)}/Recordings/${recordingSid}`;

/**
 * The Recording resource as Twilio's API writes it: `duration` a string of seconds (null while it
 * records), one channel, source RecordVerb. https://www.twilio.com/docs/voice/api/recording
 */
export function recordingResource(account: AccountRecord, recording: RecordingRecord, baseUrl: string) {
  const path = recordingPath(account.sid, recording.sid);
  return {
    account_sid: account.sid,
    api_version: API_VERSION,
    call_sid: recording.callSid,
    conference_sid: null,
    date_created: rfc2822(recording.dateCreated),
    date_updated: rfc2822(recording.dateUpdated),
    start_time: rfc2822(recording.startTime),
    duration: isFinished(recording) ? String(recording.durationSeconds) : null,
    sid: recording.sid,
    price: null,
    price_unit: 'USD',
    status: recording.status,
    channels: recording.api?.channels ?? 1,
    source: recording.api ? 'StartCallRecordingAPI' : 'RecordVerb',
    error_code: recording.errorCode,
    uri: `${path}.json`,
    encryption_details: null,
    subresource_uris: {
      add_on_results: `${path}/AddOnResults.json`,
      transcriptions: `${path}/Transcriptions.json`,
    },
    media_url: `${baseUrl}${path}`,
  };
}

/** A recording's path under its call, as the Call Recordings API writes its `uri`. */
export const callRecordingPath = (accountSid: string, callSid: string, recordingSid: string) =>
  `${accountPath(accountSid)}/Calls/${callSid}/Recordings/${recordingSid}`;

/**
 * The Call Recording resource (the Recordings of a call, …/Calls/{CallSid}/Recordings): fewer fields
 * than the account's Recording, and the recorded `track`.
 * https://www.twilio.com/docs/voice/api/recording#recording-properties
 */
export function callRecordingResource(account: AccountRecord, recording: RecordingRecord) {
  return {
    account_sid: account.sid,
    api_version: API_VERSION,
    call_sid: recording.callSid,
    conference_sid: null,
    date_created: rfc2822(recording.dateCreated),
    date_updated: rfc2822(recording.dateUpdated),
    start_time: rfc2822(recording.startTime),
    duration: isFinished(recording) ? String(recording.durationSeconds) : null,
    sid: recording.sid,
    price: null,
    uri: `${callRecordingPath(account.sid, recording.callSid, recording.sid)}.json`,
    encryption_details: null,
    price_unit: 'USD',
    status: recording.status,
    channels: recording.api?.channels ?? 1,
    source: recording.api ? 'StartCallRecordingAPI' : 'RecordVerb',
    error_code: recording.errorCode,
    track: recording.api?.track ?? 'both',
  };
}

const isFinished = (recording: RecordingRecord) => recording.status === 'completed' || recording.status === 'absent';

/** For `/_emulator/` views: the resource, playBeep and the recording status callbacks posted. */
export function recordingView(account: AccountRecord, recording: RecordingRecord, baseUrl: string) {
  return { ...recordingResource(account, recording, baseUrl), play_beep: recording.playBeep, callbacks: recording.callbacks };
}

/** 8 kHz 16-bit PCM, as a phone call's audio. */
const SAMPLE_RATE = 8000;

/** A WAV header and the interleaved samples of its channels (all of one length). */
function wav(channels: Int16Array[]): Buffer {
  const count = channels.length;
  const samples = channels[0]?.length ?? 0;
  const bytes = samples * count * 2;
  const out = Buffer.alloc(44 + bytes);
  out.write('RIFF', 0, 'latin1');
  out.writeUInt32LE(36 + bytes, 4);
  out.write('WAVEfmt ', 8, 'latin1');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(count, 22);
  out.writeUInt32LE(SAMPLE_RATE, 24);
  out.writeUInt32LE(SAMPLE_RATE * 2 * count, 28);
  out.writeUInt16LE(2 * count, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'latin1');
  out.writeUInt32LE(bytes, 40);
  for (let i = 0; i < samples; i++)
    for (let c = 0; c < count; c++) out.writeInt16LE(channels[c]?.[i] ?? 0, 44 + (i * count + c) * 2);
  return out;
}

/** A quiet tone of `hz` over `samples`, from sample `offset` of its timeline. */
function tone(hz: number, samples: number, offset = 0): Int16Array {
  const out = new Int16Array(samples);
  for (let i = 0; i < samples; i++) out[i] = Math.round(3000 * Math.sin((2 * Math.PI * hz * (offset + i)) / SAMPLE_RATE));
  return out;
}

/**
 * A `<Record>` recording's audio: a valid mono WAV of its length holding a quiet 440 Hz tone (so a
 * player shows something happening), made on request rather than kept.
 */
export function recordingWav(durationSeconds: number): Buffer {
  return wav([tone(440, durationSeconds * SAMPLE_RATE)]);
}

/**
 * What each party said, as the emulator heard it (its media engine's audio of the call), 8 kHz PCM
 * from the recording's start: `inbound` the call's own party (the phone), `outbound` the other side.
 * Absent where nobody's audio reached the emulator (a call made through its controls, with no
 * browser): a tone per party stands for their voice then (440 Hz the call's party, 660 Hz the other).
 */
export interface HeardAudio {
  inbound: Int16Array;
  outbound: Int16Array;
}

/**
 * A Call Recordings API recording's audio: one channel (both parties mixed) or two (`dual`: the
 * call's party first, the other second), over its stretches: recorded ones hold what was said,
 * paused ones silence, or nothing with PauseBehavior `skip`, as Twilio does.
 * https://www.twilio.com/docs/voice/api/recording#update-a-recording-resource
 */
export function callRecordingWav(recording: RecordingRecord, heard?: HeardAudio): Buffer {
  const api = recording.api;
  if (!api) return recordingWav(recording.durationSeconds);
  const parts: { inbound: Int16Array; outbound: Int16Array }[] = [];
  let from = 0;
  for (const stretch of api.stretches) {
    const samples = Math.round((stretchMs(stretch, stretch.to ?? stretch.from) * SAMPLE_RATE) / 1000);
    const at = from;
    from += samples;
    if (stretch.paused && stretch.skip) continue;
    const piece = (side: 'inbound' | 'outbound', hz: number) => {
      if (stretch.paused || (api.track !== 'both' && api.track !== side)) return new Int16Array(samples);
      const said = heard?.[side];
      if (!said) return tone(hz, samples, at);
      const out = new Int16Array(samples);
      out.set(said.subarray(at, at + samples));
      return out;
    };
    parts.push({ inbound: piece('inbound', 440), outbound: piece('outbound', 660) });
  }
  const join = (side: 'inbound' | 'outbound') => {
    const out = new Int16Array(parts.reduce((n, p) => n + p[side].length, 0));
    let at = 0;
    for (const part of parts) {
      out.set(part[side], at);
      at += part[side].length;
    }
    return out;
  };
  const [inbound, outbound] = [join('inbound'), join('outbound')];
  if (api.channels === 2) return wav([inbound, outbound]);
  const mixed = new Int16Array(inbound.length);
  for (let i = 0; i < mixed.length; i++) mixed[i] = Math.max(-32768, Math.min(32767, (inbound[i] ?? 0) + (outbound[i] ?? 0)));
  return wav([mixed]);
}

const stretchMs = (s: CallRecordingRecord['stretches'][number], clockNow: number) =>
  Math.max(0, (s.to ?? clockNow) - s.from) + (s.spokenMs ?? 0);

/** Whole seconds of a recording's audio: its stretches, less the skipped pauses. */
export function recordedMs(api: CallRecordingRecord, clockNow: number): number {
  return api.stretches.reduce((ms, s) => (s.paused && s.skip ? ms : ms + stretchMs(s, clockNow)), 0);
}
