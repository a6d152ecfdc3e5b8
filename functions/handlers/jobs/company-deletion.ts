import type { Context, SQSEvent } from 'aws-lambda';
import { isBeingDeleted } from '../../company/deletion';
import { type CompanyDeletionStep, enqueueCompanyDeletion } from '../../company/deletion-queue';
import { restoreTwilioNumbers, sweepOwnPartition, sweepPage } from '../../company/sweep';
import { logWarning } from '../../lib/log';
import { deleteCompanyPictures } from '../../lib/picture-bucket';

/** Time kept in hand for a page of the scan and its deletions; the next page goes to a new step. */
const PAGE_MARGIN_MS = 30_000;

/**
 * The company-deletion worker: takes a step from the queue and goes on until its time runs short,
 * then sends the next step (docs/product.md: Deleting a company). A step that throws is redelivered by SQS.
 */
export async function handler(event: SQSEvent, context: Context): Promise<void> {
  for (const record of event.Records) {
    const step = JSON.parse(record.body) as CompanyDeletionStep;
    await runStep(step, () => context.getRemainingTimeInMillis() > PAGE_MARGIN_MS);
  }
}

async function runStep(step: CompanyDeletionStep, hasTime: () => boolean): Promise<void> {
  const { companyId } = step;
  // Only a company whose deletion was asked for (DELETING, or already gone): the queue's senders are
  // checked by IAM, and this is the second line (docs/security.md: The company-deletion queue). A step
  // for any other company is dropped, not thrown, so SQS does not deliver it again and again.
  if (typeof companyId !== 'string' || !(await isBeingDeleted(companyId))) {
    logWarning({ event: 'company-deletion-step-dropped', reason: 'the company is not being deleted', companyId });
    return;
  }
  // The numbers first: the sweep deletes the provider and channel records that say what to put back.
  if ((step.phase ?? 'twilio') === 'twilio') {
    await restoreTwilioNumbers(companyId);
    // Its pictures, sent or not, go with it (docs/product.md: Deleting a company): all under its prefix.
    await deleteCompanyPictures(companyId);
  }
  let cursor = step.cursor;
  do {
    if (!hasTime()) {
      await enqueueCompanyDeletion({ companyId, phase: 'sweep', cursor });
      return;
    }
    cursor = await sweepPage(companyId, cursor);
  } while (cursor);
  await sweepOwnPartition(companyId);
}
