import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { getContact } from '../contacts/contacts';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import { publish } from '../realtime/publish';
import { answeredLeg, toCall, type VoicemailRecord } from './call-records';
import { callAudience } from './call-visibility';
import { changeCall, findCall } from './call-writes';

/**
 * Voicemail: a caller nobody answered hears the company's greeting and is recorded; Twilio's
 * recording status callback puts the recording on the call, and those who see the call (its channel's
 * routing now: docs/product.md: Who sees what) hear `voicemail_received`.
 */

export interface RecordingReport {
  callSid: string;
  recordingSid: string;
  recordingUrl: string;
  recordingStatus: string;
  recordingDuration?: number;
}

/**
 * A recording Twilio finished: kept on the inbound call of the company (once: Twilio may send the
 * callback again, and a copy changes nothing), which is a NO_ANSWER, and told to who sees the call. Another company's call, an unknown one, or a recording that is not `completed`: nothing.
 */
export async function recordVoicemailOf(companyId: string, report: RecordingReport): Promise<void> {
  if (report.recordingStatus.toLowerCase() !== 'completed') return;
  const call = await findCall(companyId, report.callSid);
  if (call?.direction !== 'INBOUND') return;
  // Its way from the call's id first (an idempotent Put): a voicemail on the call can always be played.
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.voicemail(companyId, call.id),
        entity: 'VOICEMAIL',
        callSid: call.providerCallId,
        createdAt: call.createdAt,
        ...(call.expiresAt ? { expiresAt: call.expiresAt } : {}),
      },
    }),
  );
  const voicemail: VoicemailRecord = {
    durationSeconds: report.recordingDuration ?? 0,
    recordingSid: report.recordingSid,
    recordingUrl: report.recordingUrl,
    createdAt: new Date().toISOString(),
    listenedAt: null,
  };
  const changed = await changeCall(companyId, report.callSid, (record) =>
    record.voicemail || answeredLeg(record) ? record : { ...record, outcome: 'NO_ANSWER', voicemail },
  );
  if (!changed || changed.before.voicemail || !changed.after.voicemail) return;
  const { after } = changed;
  const contact = after.contactId ? await getContact(companyId, after.contactId) : undefined;
  await publish(
    companyId,
    { type: 'voicemail_received', data: { callId: after.id, call: toCall(after, contact) } },
    { userIds: await callAudience(after) },
  );
}
