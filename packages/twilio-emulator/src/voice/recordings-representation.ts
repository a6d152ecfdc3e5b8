import { type AccountRecord, type RecordingRecord, rfc2822 } from '../model';
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
    duration: recording.status === 'in-progress' ? null : String(recording.durationSeconds),
    sid: recording.sid,
    price: null,
    price_unit: 'USD',
    status: recording.status,
    channels: 1,
    source: 'RecordVerb',
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

/** For `/_emulator/` views: the resource, playBeep and the recording status callbacks posted. */
export function recordingView(account: AccountRecord, recording: RecordingRecord, baseUrl: string) {
  return { ...recordingResource(account, recording, baseUrl), play_beep: recording.playBeep, callbacks: recording.callbacks };
}

/** 8 kHz mono 16-bit PCM, as a phone call's audio. */
const SAMPLE_RATE = 8000;

/**
 * A recording's audio: a valid WAV of its length holding a quiet 440 Hz tone (so a player shows
 * something happening), made on request rather than kept.
 */
export function recordingWav(durationSeconds: number): Buffer {
  const samples = durationSeconds * SAMPLE_RATE;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0, 'latin1');
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8, 'latin1');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(SAMPLE_RATE, 24);
  wav.writeUInt32LE(SAMPLE_RATE * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'latin1');
  wav.writeUInt32LE(samples * 2, 40);
  // One period of the tone (8000/440 is not whole: 20 periods fit 363.6 samples; one second repeats exactly).
  const second = Buffer.alloc(SAMPLE_RATE * 2);
  for (let i = 0; i < SAMPLE_RATE; i++)
    second.writeInt16LE(Math.round(3000 * Math.sin((2 * Math.PI * 440 * i) / SAMPLE_RATE)), i * 2);
  for (let s = 0; s < durationSeconds; s++) second.copy(wav, 44 + s * SAMPLE_RATE * 2);
  return wav;
}
