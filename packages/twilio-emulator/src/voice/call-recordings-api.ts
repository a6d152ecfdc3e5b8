import type { ApiAnswer, Context, Route } from '../api-route';
import type { EmulatorEvents } from '../events';
import type { Logger } from '../log';
import { type AccountRecord, type CallRecordingRecord, newSid, now, type RecordingRecord, rfc2822 } from '../model';
import { listPage } from '../paging';
import { accountPath } from '../representation';
import type { EmulatorStore } from '../store';
import { INVALID_PARAMETER, INVALID_URL, invalidParameter, notFound } from '../twilio-errors';
import { deliverWebhook } from '../webhooks';
import { isFinal } from './call-legs';
import { callRecordingResource, recordedMs, recordingPath } from './recordings-representation';

/**
 * The Recordings of a call (…/Calls/{CallSid}/Recordings): start recording a call under way, list
 * and fetch them, pause, resume and stop one (`Twilio.CURRENT` names the call's latest), delete
 * one. A recording ends with its call; its audio is served with the account's other recordings
 * (recordings-api.ts). https://www.twilio.com/docs/voice/api/recording
 */
export const callRecordingRoutes: Route[] = [
  { pattern: /^\/Calls\/([^/]+)\/Recordings\.json$/, methods: { GET: listCallRecordings, POST: createCallRecording } },
  {
    pattern: /^\/Calls\/([^/]+)\/Recordings\/([^/]+?)\.json$/,
    methods: { GET: fetchCallRecording, POST: updateCallRecording, DELETE: deleteCallRecording },
  },
];

/** Twilio's "call is not in a state for this" answer to recording a call that is not in progress. */
const NOT_IN_PROGRESS = 21220;
const EVENTS = new Set(['in-progress', 'completed', 'absent']);

function callOf({ account, request, sids }: Context) {
  const call = account.calls.find((c) => c.sid === sids[0]);
  if (!call) throw notFound(request.path);
  return call;
}

function recordingOf(context: Context): RecordingRecord {
  const call = callOf(context);
  const { account, request, sid } = context;
  const ofCall = account.recordings.filter((r) => r.callSid === call.sid && r.api);
  // Twilio.CURRENT: the call's latest recording. https://www.twilio.com/docs/voice/api/recording#update-a-recording-resource
  const recording = sid === 'Twilio.CURRENT' ? ofCall.at(-1) : ofCall.find((r) => r.sid === sid);
  if (!recording) throw notFound(request.path);
  return recording;
}

function oneOf<T extends string>(value: string | null, allowed: readonly T[], fallback: T, name: string): T {
  if (value === null) return fallback;
  const found = allowed.find((a) => a === value.toLowerCase());
  if (!found) throw invalidParameter(INVALID_PARAMETER, `${name} must be one of ${allowed.join(', ')}, not "${value}"`);
  return found;
}

function createCallRecording(context: Context): ApiAnswer {
  const { account, request, store, events } = context;
  const call = callOf(context);
  if (call.status !== 'in-progress') throw invalidParameter(NOT_IN_PROGRESS, 'Call is not in-progress. Cannot record.');
  const form = request.form;
  const channels = oneOf(form.get('RecordingChannels'), ['mono', 'dual'], 'mono', 'RecordingChannels');
  const track = oneOf(form.get('RecordingTrack'), ['inbound', 'outbound', 'both'], 'both', 'RecordingTrack');
  const url = form.get('RecordingStatusCallback');
  if (url !== null && !/^https?:\/\/[^/]/.test(url))
    throw invalidParameter(INVALID_URL, `RecordingStatusCallback is not a valid URL: ${url}`);
  const asked = form
    .getAll('RecordingStatusCallbackEvent')
    .flatMap((e) => e.split(/[\s,]+/))
    .filter(Boolean);
  for (const event of asked)
    if (!EVENTS.has(event)) throw invalidParameter(INVALID_PARAMETER, `RecordingStatusCallbackEvent has "${event}"`);
  const at = now(store.clock);
  const api: CallRecordingRecord = {
    channels: channels === 'dual' ? 2 : 1,
    track,
    callback:
      url === null
        ? null
        : {
            url,
            method: form.get('RecordingStatusCallbackMethod')?.toUpperCase() === 'GET' ? 'GET' : 'POST',
            events: asked.length > 0 ? asked : ['completed'],
          },
    stretches: [{ from: store.clock.now(), to: null, paused: false, skip: false }],
  };
  const recording: RecordingRecord = {
    sid: newSid('RE'),
    callSid: call.sid,
    status: 'in-progress',
    durationSeconds: 0,
    errorCode: null,
    startTime: at,
    dateCreated: at,
    dateUpdated: at,
    playBeep: false,
    callbacks: [],
    api,
  };
  store.change(() => account.recordings.push(recording));
  events.emit('recording', account, recording);
  return { status: 201, body: callRecordingResource(account, recording) };
}

/** Newest first, as Twilio lists them. */
function listCallRecordings(context: Context): ApiAnswer {
  const { account, request } = context;
  const call = callOf(context);
  const items = account.recordings.filter((r) => r.callSid === call.sid && r.api).reverse();
  return {
    status: 200,
    body: listPage({
      path: `${accountPath(account.sid)}/Calls/${call.sid}/Recordings.json`,
      key: 'recordings',
      items,
      query: request.query,
      filters: [],
      represent: (r) => callRecordingResource(account, r),
    }),
  };
}

function fetchCallRecording(context: Context): ApiAnswer {
  return { status: 200, body: callRecordingResource(context.account, recordingOf(context)) };
}

/**
 * `Status`: `paused` (PauseBehavior `silence`, the default, keeps the pause as silence; `skip` leaves
 * it out), `in-progress` resumes, `stopped` ends it (it is then `completed`, or `absent` with nothing
 * recorded). A finished recording cannot change.
 */
function updateCallRecording(context: Context): ApiAnswer {
  const { account, request, store, events } = context;
  const recording = recordingOf(context);
  const status = oneOf(request.form.get('Status'), ['paused', 'in-progress', 'stopped'], 'in-progress', 'Status');
  if (request.form.get('Status') === null) throw invalidParameter(INVALID_PARAMETER, 'Status is required');
  const skip = oneOf(request.form.get('PauseBehavior'), ['skip', 'silence'], 'silence', 'PauseBehavior') === 'skip';
  const api = recording.api;
  if (!api || (recording.status !== 'in-progress' && recording.status !== 'paused'))
    throw invalidParameter(NOT_IN_PROGRESS, `Recording is ${recording.status}: it cannot be ${status}.`);
  if (status === 'stopped') {
    finish(store, recording);
    events.emit('recording', account, recording);
    return { status: 200, body: { ...callRecordingResource(account, recording), status: 'stopped', duration: null } };
  }
  const paused = status === 'paused';
  const current = api.stretches.at(-1);
  if (current && current.paused !== paused) {
    const at = store.clock.now();
    store.change(() => {
      current.to = at;
      api.stretches.push({ from: at, to: null, paused, skip: paused && skip });
      recording.status = status;
      recording.dateUpdated = now(store.clock);
    });
  }
  return { status: 200, body: callRecordingResource(account, recording) };
}

function deleteCallRecording(context: Context): ApiAnswer {
  const recording = recordingOf(context);
  context.store.change(() => {
    context.account.recordings = context.account.recordings.filter((r) => r !== recording);
  });
  return { status: 204 };
}

/** The recording's last stretch ends now: `completed` with its length, or `absent` when nothing was recorded. */
function finish(store: EmulatorStore, recording: RecordingRecord, at = store.clock.now()) {
  const api = recording.api;
  if (!api) return;
  store.change(() => {
    const current = api.stretches.at(-1);
    if (current && current.to === null) current.to = Math.max(current.from, at);
    const seconds = Math.floor(recordedMs(api, at) / 1000);
    recording.durationSeconds = seconds;
    recording.status = seconds > 0 ? 'completed' : 'absent';
    recording.dateUpdated = now(store.clock);
  });
}

/**
 * The call's party talks on for `seconds` more (the `speak` control): its recording under way, if
 * any, is that much longer, as if the time had passed. False when none is recording.
 */
export function speakOnCallRecording(store: EmulatorStore, account: AccountRecord, callSid: string, seconds: number) {
  const recording = account.recordings.find((r) => r.callSid === callSid && r.api && r.status === 'in-progress');
  const current = recording?.api?.stretches.at(-1);
  if (!current) return false;
  store.change(() => {
    current.spokenMs = (current.spokenMs ?? 0) + seconds * 1000;
  });
  return true;
}

/**
 * What happens to Call Recordings API recordings besides their REST requests: each ends with its
 * call (at the call's end time), and the signed recording status callbacks go out for the events
 * asked. https://www.twilio.com/docs/voice/api/recording#recordingstatuscallback
 */
export function startCallRecordings(options: {
  store: EmulatorStore;
  events: EmulatorEvents;
  log: Logger;
  signal: AbortSignal;
  baseUrl: () => string;
}) {
  const { store, events, signal, baseUrl } = options;
  events.on('call', (account, call) => {
    if (!isFinal(call)) return;
    const at = call.endTime ? Date.parse(call.endTime) : store.clock.now();
    for (const recording of account.recordings) {
      if (recording.callSid !== call.sid || !recording.api) continue;
      if (recording.status !== 'in-progress' && recording.status !== 'paused') continue;
      finish(store, recording, Math.min(at, store.clock.now()));
      events.emit('recording', account, recording);
    }
  });
  events.on('recording', (account, recording) => {
    const callback = recording.api?.callback;
    const event = recording.status;
    if (!callback?.events.includes(event)) return;
    const params = {
      AccountSid: account.sid,
      CallSid: recording.callSid,
      RecordingSid: recording.sid,
      RecordingUrl: `${baseUrl()}${recordingPath(account.sid, recording.sid)}`,
      RecordingStatus: event,
      RecordingDuration: event === 'in-progress' ? '-1' : String(recording.durationSeconds),
      RecordingChannels: String(recording.api?.channels ?? 1),
      RecordingTrack: recording.api?.track ?? 'both',
      RecordingStartTime: rfc2822(recording.startTime),
      RecordingSource: 'StartCallRecordingAPI',
      ...(recording.errorCode === null ? {} : { ErrorCode: String(recording.errorCode) }),
    };
    void deliverWebhook({
      url: callback.url,
      method: callback.method,
      params,
      authToken: account.authToken,
      signal,
      lost: store.faults.takeWebhookDrop(account.sid),
      clock: store.clock,
    }).then((attempt) => {
      if (!signal.aborted) store.change(() => recording.callbacks.push({ ...attempt, event }));
    });
  });
}
