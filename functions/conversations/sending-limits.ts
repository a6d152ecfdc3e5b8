import { TEXT_SEGMENTS_PER_MEMBER_HOUR, TEXT_SEGMENTS_PER_MEMBER_MINUTE } from '../../shared/constants';
import { smsSegments } from '../../shared/sms-segments';
import { callingSettings } from '../company/calling-settings';
import { consumeSliding, type SlidingLimit } from '../lib/throttle';

/**
 * What a member may make the company pay for in texts (docs/product.md: Sending limits): segments a
 * minute and an hour per member, and the company's hour, which its owner sets in Settings → Calling.
 * Every text that goes to Twilio counts: a reply, a new conversation's first text, a retry and a resend.
 */

/** A text's cost in segments: its words as carriers count them, and one for each picture. */
export function textCost(body: string, pictures: number): number {
  return (body.length > 0 ? smsSegments(body).segments : 0) + pictures;
}

const segments = (n: number) => `${n.toLocaleString('en-US')} text segment${n === 1 ? '' : 's'}`;

/** The three limits a member's text counts against. */
export function sendingLimits(companyId: string, userId: string, companyPerHour: number): SlidingLimit[] {
  return [
    {
      bucket: 'TEXT_SEGMENTS_MEMBER_MINUTE',
      subject: `${companyId}#${userId}`,
      limit: TEXT_SEGMENTS_PER_MEMBER_MINUTE,
      windowSeconds: 60,
      message: (when) => `You can send up to ${segments(TEXT_SEGMENTS_PER_MEMBER_MINUTE)} a minute. Please try again ${when}.`,
    },
    {
      bucket: 'TEXT_SEGMENTS_MEMBER_HOUR',
      subject: `${companyId}#${userId}`,
      limit: TEXT_SEGMENTS_PER_MEMBER_HOUR,
      windowSeconds: 60 * 60,
      message: (when) => `You can send up to ${segments(TEXT_SEGMENTS_PER_MEMBER_HOUR)} an hour. Please try again ${when}.`,
    },
    {
      bucket: 'TEXT_SEGMENTS_COMPANY_HOUR',
      subject: companyId,
      limit: companyPerHour,
      windowSeconds: 60 * 60,
      message: (when) =>
        `Your company can send up to ${segments(companyPerHour)} an hour (the owner can change this in Settings → Calling). Please try again ${when}.`,
    },
  ];
}

/**
 * Counts a text against its sender's and the company's limits, or refuses it with 429 and which limit
 * it met. Answers how to take it back, for a text that was not sent after all.
 */
export async function countText(companyId: string, userId: string, body: string, pictures: number): Promise<() => Promise<void>> {
  const { textSegmentsPerHour } = await callingSettings(companyId);
  return consumeSliding(sendingLimits(companyId, userId, textSegmentsPerHour), textCost(body, pictures));
}
