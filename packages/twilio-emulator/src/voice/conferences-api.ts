import type { ApiAnswer, Context, Route } from '../api-route';
import type { ConferenceRecord, ParticipantRecord, WebhookMethod } from '../model';
import { listPage } from '../paging';
import { accountPath } from '../representation';
import { INVALID_METHOD, INVALID_PARAMETER, INVALID_URL, invalidParameter, notFound } from '../twilio-errors';
import { conferenceEvents } from './conference-fields';
import { conferenceResource, participantResource } from './conference-representation';
import { isPresent } from './conferences';
import type { ConferenceControls } from './participant-call';

export const conferenceRoutes: Route[] = [
  { pattern: /^\/Conferences\.json$/, methods: { GET: listConferences } },
  { pattern: /^\/Conferences\/([^/]+)\.json$/, methods: { GET: fetchConference, POST: updateConference } },
  { pattern: /^\/Conferences\/([^/]+)\/Participants\.json$/, methods: { GET: listParticipants, POST: createParticipant } },
  {
    pattern: /^\/Conferences\/([^/]+)\/Participants\/([^/]+)\.json$/,
    methods: { GET: fetchParticipant, POST: updateParticipant, DELETE: deleteParticipant },
  },
];

/** A phone number in E.164, or a Voice SDK client. */
const PARTY = /^(\+[1-9]\d{6,14}|client:[\w.@:+-]{1,256})$/;
const CALL_EVENTS = new Set(['initiated', 'ringing', 'answered', 'completed']);

function conferencesOf(context: Context): ConferenceControls {
  if (!context.conferences) throw new Error('The REST API was started without the voice part.');
  return context.conferences;
}

function conferenceOf({ account, request, sids }: Context): ConferenceRecord {
  const conference = account.conferences.find((c) => c.sid === sids[0]);
  if (!conference) throw notFound(request.path);
  return conference;
}

/** A participant in the conference now, by its call's SID or its label, as Twilio finds it. */
function participantOf(context: Context): { conference: ConferenceRecord; participant: ParticipantRecord } {
  const conference = conferenceOf(context);
  const key = context.sids[1];
  const participant = conference.participants.find((p) => isPresent(p) && (p.callSid === key || p.label === key));
  if (!participant) throw notFound(context.request.path);
  return { conference, participant };
}

function url(name: string, value: string | null): string | undefined {
  if (value === null || value === '') return undefined;
  if (!/^https?:\/\/[^/]/.test(value)) throw invalidParameter(INVALID_URL, `${name} is not a valid URL: ${value}`);
  return value;
}

function method(name: string, value: string | null): WebhookMethod {
  const upper = (value ?? 'POST').toUpperCase();
  if (upper !== 'GET' && upper !== 'POST') throw invalidParameter(INVALID_METHOD, `${name} must be GET or POST, not ${value}`);
  return upper;
}

function flag(name: string, value: string | null): boolean | undefined {
  if (value === null) return undefined;
  const lower = value.toLowerCase();
  if (lower !== 'true' && lower !== 'false')
    throw invalidParameter(INVALID_PARAMETER, `${name} must be true or false, not ${value}`);
  return lower === 'true';
}

/** Conferences, newest first; `FriendlyName` and `Status` filter exactly. */
function listConferences({ account, request }: Context): ApiAnswer {
  const filters = (['FriendlyName', 'Status'] as const).flatMap((name) => {
    const value = request.query.get(name);
    return value === null ? [] : [[name, value] as [string, string]];
  });
  const field = { FriendlyName: 'friendlyName', Status: 'status' } as const;
  const items = account.conferences
    .filter((c) => filters.every(([name, value]) => c[field[name as keyof typeof field]] === value))
    .reverse();
  return {
    status: 200,
    body: listPage({
      path: `${accountPath(account.sid)}/Conferences.json`,
      key: 'conferences',
      items,
      query: request.query,
      filters,
      represent: (conference) => conferenceResource(account, conference),
    }),
  };
}

function fetchConference(context: Context): ApiAnswer {
  return { status: 200, body: conferenceResource(context.account, conferenceOf(context)) };
}

/**
 * `Status=completed` ends the conference (everyone leaves); `AnnounceUrl` plays TwiML to everyone in it.
 * https://www.twilio.com/docs/voice/api/conference-resource#update-a-conference-resource
 */
function updateConference(context: Context): ApiAnswer {
  const { account, request } = context;
  const conference = conferenceOf(context);
  const form = request.form;
  const status = form.get('Status');
  if (status !== null && status !== 'completed')
    throw invalidParameter(INVALID_PARAMETER, `Status must be completed, not "${status}"`);
  const announceUrl = url('AnnounceUrl', form.get('AnnounceUrl'));
  const announceMethod = method('AnnounceMethod', form.get('AnnounceMethod'));
  const conferences = conferencesOf(context);
  if (announceUrl && conference.status !== 'completed')
    for (const participant of conference.participants.filter((p) => p.status === 'connected'))
      conferences.update(account, conference, participant, { announceUrl, announceMethod });
  if (status === 'completed') conferences.end(account, conference, 'conference-ended-via-api', null);
  return { status: 200, body: conferenceResource(account, conference) };
}

/** The participants ringing or in the conference; `Muted` and `Hold` filter. */
function listParticipants(context: Context): ApiAnswer {
  const { account, request } = context;
  const conference = conferenceOf(context);
  const filters = (['Muted', 'Hold'] as const).flatMap((name) => {
    const value = request.query.get(name);
    return value === null ? [] : [[name, value] as [string, string]];
  });
  const items = conference.participants
    .filter(isPresent)
    .filter((p) => filters.every(([name, value]) => String(name === 'Muted' ? p.muted : p.hold) === value.toLowerCase()))
    .map((p) => ({ ...p, sid: p.callSid }));
  return {
    status: 200,
    body: listPage({
      path: `${accountPath(account.sid)}/Conferences/${conference.sid}/Participants.json`,
      key: 'participants',
      items,
      query: request.query,
      filters,
      represent: (participant) => participantResource(account, conference, participant),
    }),
  };
}

/**
 * Dials `To` (a number, or `client:{identity}`) into the conference named by SID or friendly name (made
 * when none is under way): 201 with the participant `queued`.
 * https://www.twilio.com/docs/voice/api/conference-participant-resource#create-a-participant-resource
 */
function createParticipant(context: Context): ApiAnswer {
  const { account, request, sids } = context;
  const form = request.form;
  const to = form.get('To') ?? '';
  const from = form.get('From') ?? '';
  if (!to) throw invalidParameter(21604, "A 'To' phone number is required.");
  if (!from) throw invalidParameter(21603, "A 'From' phone number is required.");
  if (!PARTY.test(to)) throw invalidParameter(21211, `Invalid 'To' Phone Number: ${to}`);
  if (!PARTY.test(from) || (to.startsWith('+') && !from.startsWith('+')))
    throw invalidParameter(21212, `Invalid 'From' Phone Number: ${from}`);
  const callEvents = (form.get('StatusCallbackEvent') ?? '')
    .split(/[\s,]+/)
    .filter((e): e is 'initiated' | 'ringing' | 'answered' | 'completed' => CALL_EVENTS.has(e));
  const conferenceEventsGiven = form.get('ConferenceStatusCallbackEvent');
  const outcome = conferencesOf(context).dialIn(account, decodeURIComponent(sids[0] ?? ''), {
    name: '',
    from,
    to,
    label: form.get('Label'),
    muted: flag('Muted', form.get('Muted')) ?? false,
    beep: form.get('Beep') ?? 'true',
    startConferenceOnEnter: flag('StartConferenceOnEnter', form.get('StartConferenceOnEnter')) ?? true,
    endConferenceOnExit: flag('EndConferenceOnExit', form.get('EndConferenceOnExit')) ?? false,
    waitUrl: url('WaitUrl', form.get('WaitUrl')),
    waitMethod: method('WaitMethod', form.get('WaitMethod')),
    statusCallback: url('ConferenceStatusCallback', form.get('ConferenceStatusCallback')),
    statusCallbackMethod: method('ConferenceStatusCallbackMethod', form.get('ConferenceStatusCallbackMethod')),
    statusCallbackEvents: conferenceEventsGiven === null ? ['start', 'end'] : conferenceEvents(conferenceEventsGiven),
    timeout: form.get('Timeout'),
    callStatusCallback: url('StatusCallback', form.get('StatusCallback')) ?? '',
    callStatusCallbackMethod: method('StatusCallbackMethod', form.get('StatusCallbackMethod')),
    callStatusCallbackEvents: callEvents,
  });
  if (!outcome.ok)
    throw outcome.refusal === 'unknown' ? notFound(request.path) : invalidParameter(INVALID_PARAMETER, outcome.error);
  const { conference, participant } = outcome.value;
  return { status: 201, body: participantResource(account, conference, participant, '0') };
}

function fetchParticipant(context: Context): ApiAnswer {
  const { conference, participant } = participantOf(context);
  return { status: 200, body: participantResource(context.account, conference, participant) };
}

/**
 * Holds (with `HoldUrl`'s TwiML, or the hold music), mutes, announces to, or changes a participant.
 * https://www.twilio.com/docs/voice/api/conference-participant-resource#update-a-participant-resource
 */
function updateParticipant(context: Context): ApiAnswer {
  const { account, request } = context;
  const { conference, participant } = participantOf(context);
  const form = request.form;
  const holdUrl = url('HoldUrl', form.get('HoldUrl'));
  const waitUrl = url('WaitUrl', form.get('WaitUrl'));
  const announceUrl = url('AnnounceUrl', form.get('AnnounceUrl'));
  conferencesOf(context).update(account, conference, participant, {
    hold: flag('Hold', form.get('Hold')),
    muted: flag('Muted', form.get('Muted')),
    endConferenceOnExit: flag('EndConferenceOnExit', form.get('EndConferenceOnExit')),
    beepOnExit: flag('BeepOnExit', form.get('BeepOnExit')),
    ...(holdUrl !== undefined || form.get('HoldUrl') === '' ? { holdUrl: holdUrl ?? '' } : {}),
    ...(form.get('HoldMethod') !== null ? { holdMethod: method('HoldMethod', form.get('HoldMethod')) } : {}),
    ...(waitUrl !== undefined ? { waitUrl } : {}),
    ...(form.get('WaitMethod') !== null ? { waitMethod: method('WaitMethod', form.get('WaitMethod')) } : {}),
    ...(announceUrl ? { announceUrl, announceMethod: method('AnnounceMethod', form.get('AnnounceMethod')) } : {}),
  });
  return { status: 200, body: participantResource(account, conference, participant) };
}

/** Removes a participant (its call goes on after its `<Dial>`, or ends): 204. */
function deleteParticipant(context: Context): ApiAnswer {
  const { participant } = participantOf(context);
  conferencesOf(context).leave(context.account, participant.callSid, 'kicked');
  return { status: 204 };
}
