import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';

/**
 * The company-deletion queue (SQS): a message is one step of a deletion, taken by the worker
 * (functions/handlers/jobs/company-deletion.ts), which sends the next step itself until nothing is
 * left. SQS retries a failed step; every step is idempotent. Locally the gateway stands in for SQS.
 */
export interface CompanyDeletionStep {
  companyId: string;
  /** `twilio`: put the numbers back first; `sweep`: remove the items, from `cursor` on. */
  phase?: 'twilio' | 'sweep';
  /** The table scan's position (its LastEvaluatedKey) where the previous step stopped. */
  cursor?: Record<string, unknown>;
}

let client: SQSClient | undefined;
/** Created on first use; only functions with the companyDeletion capability have the queue's URL. */
function sqs(): SQSClient {
  client ??= new SQSClient(process.env.SQS_ENDPOINT ? { endpoint: process.env.SQS_ENDPOINT } : {});
  return client;
}

export async function enqueueCompanyDeletion(step: CompanyDeletionStep): Promise<void> {
  const QueueUrl = process.env.COMPANY_DELETION_QUEUE_URL;
  if (!QueueUrl) throw new Error('Missing environment variable COMPANY_DELETION_QUEUE_URL');
  await sqs().send(new SendMessageCommand({ QueueUrl, MessageBody: JSON.stringify(step) }));
}
