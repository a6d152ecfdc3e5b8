import type { AccountRecord, ConferenceRecord, ParticipantRecord } from '../model';
import { rfc2822 } from '../model';
import { API_VERSION, accountPath } from '../representation';

/**
 * The Conference resource as Twilio's API writes it; `region` is where Twilio mixes basic conferences.
 * https://www.twilio.com/docs/voice/api/conference-resource
 */
export function conferenceResource(account: AccountRecord, conference: ConferenceRecord) {
  const uri = `${accountPath(account.sid)}/Conferences/${conference.sid}`;
  return {
    account_sid: account.sid,
    api_version: API_VERSION,
    call_sid_ending_conference: conference.callSidEndingConference,
    date_created: rfc2822(conference.dateCreated),
    date_updated: rfc2822(conference.dateUpdated),
    friendly_name: conference.friendlyName,
    reason_conference_ended: conference.reasonConferenceEnded,
    region: 'us1',
    sid: conference.sid,
    status: conference.status,
    subresource_uris: { participants: `${uri}/Participants.json`, recordings: `${uri}/Recordings.json` },
    uri: `${uri}.json`,
  };
}

/**
 * The Participant resource: `queue_time` is given only in the answer to its creation.
 * https://www.twilio.com/docs/voice/api/conference-participant-resource
 */
export function participantResource(
  account: AccountRecord,
  conference: ConferenceRecord,
  participant: ParticipantRecord,
  queueTime: string | null = null,
) {
  return {
    account_sid: account.sid,
    call_sid: participant.callSid,
    call_sid_to_coach: null,
    coaching: false,
    conference_sid: conference.sid,
    date_created: rfc2822(participant.dateCreated),
    date_updated: rfc2822(participant.dateUpdated),
    end_conference_on_exit: participant.endConferenceOnExit,
    hold: participant.hold,
    label: participant.label,
    muted: participant.muted,
    queue_time: queueTime,
    start_conference_on_enter: participant.startConferenceOnEnter,
    status: participant.status,
    uri: `${accountPath(account.sid)}/Conferences/${conference.sid}/Participants/${participant.callSid}.json`,
  };
}
