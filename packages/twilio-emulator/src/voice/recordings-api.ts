import type { ApiAnswer, Context, Route } from '../api-route';
import { listPage } from '../paging';
import { accountPath } from '../representation';
import { notFound } from '../twilio-errors';
import { callRecordingWav, recordingResource } from './recordings-representation';

/**
 * The Recordings resource and its audio: `.json` the resource, `.wav` or no extension the WAV, `.mp3`
 * the same WAV bytes as audio/wav (the emulator has no MP3 encoder). Behind the account's
 * credentials like the rest of the API; another account's recording is not found.
 * https://www.twilio.com/docs/voice/api/recording#fetch-a-recording-media-file
 */
export const recordingRoutes: Route[] = [
  { pattern: /^\/Recordings\.json$/, methods: { GET: listRecordings } },
  { pattern: /^\/Recordings\/([^/.]+)\.json$/, methods: { GET: fetchRecording } },
  { pattern: /^\/Recordings\/([^/.]+)(?:\.wav|\.mp3)?$/, methods: { GET: fetchRecordingAudio } },
];

/** Newest first, as Twilio lists them; `CallSid` filters. */
function listRecordings({ account, request, baseUrl }: Context): ApiAnswer {
  const callSid = request.query.get('CallSid');
  const items = account.recordings.filter((r) => callSid === null || r.callSid === callSid).reverse();
  return {
    status: 200,
    body: listPage({
      path: `${accountPath(account.sid)}/Recordings.json`,
      key: 'recordings',
      items,
      query: request.query,
      filters: callSid === null ? [] : [['CallSid', callSid]],
      represent: (r) => recordingResource(account, r, baseUrl),
    }),
  };
}

function recordingOf({ account, request, sid }: Context) {
  const recording = account.recordings.find((r) => r.sid === sid);
  if (!recording) throw notFound(request.path);
  return recording;
}

function fetchRecording(context: Context): ApiAnswer {
  return { status: 200, body: recordingResource(context.account, recordingOf(context), context.baseUrl) };
}

/** A recording still under way has no audio yet, as with Twilio. */
function fetchRecordingAudio(context: Context): ApiAnswer {
  const recording = recordingOf(context);
  if (recording.status !== 'completed') throw notFound(context.request.path);
  return {
    status: 200,
    body: callRecordingWav(recording),
    headers: { 'Content-Type': 'audio/wav', 'Cache-Control': 'private, max-age=3600' },
  };
}
