import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { notFound } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import { contentFromTwilio } from '../settings/twilio-content';
import type { LoadedViewer } from '../team/visibility';
import type { CallRecord } from './call-records';
import { viewerSeesCall } from './call-visibility';
import { findCall } from './call-writes';

/**
 * A voicemail's recording (GET /api/v1/calls/{id}/voicemail), as a WAV from Twilio with the company's
 * credentials; marked listened the first time it is played. Another company's call, a call without a
 * voicemail, or one the member may not see (docs/product.md: Who sees what): not found, in the same
 * words, and nothing marked.
 */
export async function voicemailRecording(
  viewer: LoadedViewer & { companyId: string },
  callId: string,
): Promise<{ binary: Buffer; contentType: string; cacheControl: string }> {
  const { companyId } = viewer;
  const { Item: link } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.voicemail(companyId, callId), ConsistentRead: true }),
  );
  const call = link ? await findCall(companyId, link.callSid as string) : undefined;
  if (!call?.voicemail || call.id !== callId || !viewerSeesCall(viewer, call)) throw notFound('Voicemail not found');
  const content = await contentFromTwilio(companyId, call.voicemail.recordingUrl.replace(/\.(wav|mp3)$/i, ''), {
    name: 'voicemail',
    suffix: '.wav',
  });
  if (call.voicemail.listenedAt === null) await markListened(call);
  // Kept by no cache: after sign-out, removal or the company's deletion the browser must not play it
  // again (docs/security.md: Media in the browser).
  return { binary: content.bytes, contentType: 'audio/wav', cacheControl: 'private, no-store' };
}

/** The first play only (a condition on the stored item); the version moves, so a versioned writer reads it again. */
async function markListened(call: CallRecord): Promise<void> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.call(call.companyId, call.createdAt, call.id),
        UpdateExpression: 'SET voicemail.listenedAt = :now, version = version + :one',
        ConditionExpression: 'voicemail.listenedAt = :never',
        ExpressionAttributeValues: { ':now': new Date().toISOString(), ':one': 1, ':never': null },
      }),
    );
  } catch (error) {
    // Someone played it first.
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}
