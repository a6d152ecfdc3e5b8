import type { ChannelHealthStatus, HealthProblem } from '../../shared/contract/channel-health';
import type { Capabilities, Channel, Inbox, Provider, TeamUser } from '../../shared/contract/settings';
import type { UserRecord } from '../auth/accounts';

/** Stored shapes of the settings entities and their API views. */

export interface ProviderRecord {
  id: string;
  companyId: string;
  type: 'TWILIO';
  /**
   * CONNECTING from the first write of a connect until everything exists in Twilio; what it has
   * created so far is recorded as it is created, so a retry or a disconnect can undo it. Absent: connected.
   */
  status?: 'CONNECTING' | 'CONNECTED';
  accountSid: string;
  authTokenEncrypted: string;
  apiKeySid?: string;
  apiKeySecretEncrypted?: string;
  twimlAppSid?: string;
  webhookId: string;
  /**
   * The webhook base the numbers and the TwiML application were pointed at: Twilio signs the URL it
   * calls, so signatures are checked against this, even after the app moves to another domain.
   */
  webhookBaseUrl?: string;
  /**
   * The base before the last re-point (functions/settings/repoint.ts): Twilio still signs callbacks of
   * messages and calls begun before it, and numbers not yet re-pointed, with it, so it verifies too.
   */
  previousWebhookBaseUrl?: string;
  /** The base the TwiML application points at, recorded once a re-point has begun; absent: `webhookBaseUrl`. */
  twimlAppWebhookBaseUrl?: string;
  createdAt: string;
}

/** A number import begun but not finished (see keys.numberImport). */
export interface NumberImportRecord {
  companyId: string;
  providerId: string;
  numberSid: string;
  phoneNumber: string;
  channelId: string;
  enabled: { voice: boolean; sms: boolean };
  previousUrls: PreviousNumberUrls;
}

/** The number's own settings before import, so disconnecting can put them back. */
export interface PreviousNumberUrls {
  SmsUrl?: string;
  SmsMethod?: string;
  VoiceUrl?: string;
  VoiceMethod?: string;
  StatusCallback?: string;
  StatusCallbackMethod?: string;
  /** The TwiML applications it used, when it had them (import clears them). */
  VoiceApplicationSid?: string;
  SmsApplicationSid?: string;
}

export interface ChannelRecord {
  id: string;
  companyId: string;
  type: 'PHONE' | 'EMAIL';
  identifier: string;
  /** The provider's name for the number at import; absent on channels imported before it was kept. */
  friendlyName?: string;
  status: 'ACTIVE' | 'INACTIVE';
  /** What the number supports. */
  capabilities: Capabilities;
  /** What import pointed at the platform. */
  enabled: { voice: boolean; sms: boolean };
  providerId: string | null;
  numberSid: string | null;
  previousUrls: PreviousNumberUrls;
  /** The webhook base this number was pointed at (absent on channels imported before it was recorded). */
  webhookBaseUrl?: string;
  routingType: 'UNASSIGNED' | 'INBOX' | 'USER';
  routingTargetId: string | null;
  createdAt: string;
  /** The last health check (functions/channels/health.ts); absent until one ran. */
  health?: ChannelHealthRecord;
}

/** A health check's outcome as the channel's item keeps it. */
export interface ChannelHealthRecord {
  status: ChannelHealthStatus;
  checkedAt: string;
  problems: HealthProblem[];
}

export interface InboxRecord {
  id: string;
  companyId: string;
  name: string;
  description: string | null;
  memberCount: number;
  createdAt: string;
  /** Calls of its numbers are recorded (docs/product.md: Call recording); absent: not. */
  recordCalls?: boolean;
}

export interface InboxMemberRecord {
  id: string;
  inboxId: string;
  userId: string;
  createdAt: string;
}

export function toProvider(record: ProviderRecord, channelCount: number): Provider {
  return { id: record.id, type: record.type, accountSid: record.accountSid, channelCount, createdAt: record.createdAt };
}

/**
 * What the channel is used for: the capabilities import pointed at the platform, not everything the
 * number could do (MMS travels with SMS). Webhooks only arrive for these.
 */
export function enabledCapabilities(record: Pick<ChannelRecord, 'capabilities' | 'enabled'>): Capabilities {
  const { capabilities, enabled } = record;
  return {
    voice: capabilities.voice && enabled.voice,
    sms: capabilities.sms && enabled.sms,
    mms: capabilities.mms && enabled.sms,
  };
}

export function toChannel(record: ChannelRecord, targetName: string | undefined): Channel {
  return {
    id: record.id,
    type: record.type,
    identifier: record.identifier,
    friendlyName: record.friendlyName ?? null,
    status: record.status,
    capabilities: enabledCapabilities(record),
    routingType: record.routingType,
    routingTargetId: record.routingTargetId,
    routingTarget: targetName === undefined ? null : { name: targetName },
    providerId: record.providerId,
    createdAt: record.createdAt,
    // The last check's outcome (functions/channels/health.ts); GET /channels/{id}/health has its problems.
    health: { status: record.health?.status ?? 'UNCHECKED', checkedAt: record.health?.checkedAt ?? null },
  };
}

export function toInbox(record: InboxRecord, channelCount: number): Inbox {
  return {
    id: record.id,
    name: record.name,
    description: record.description ?? null,
    memberCount: record.memberCount ?? 0,
    channelCount,
    createdAt: record.createdAt,
    recordCalls: record.recordCalls === true,
  };
}

export function toTeamUser(record: UserRecord): TeamUser {
  return {
    id: record.id,
    name: record.name,
    email: record.email,
    role: record.role,
    avatarUrl: record.avatarUrl ?? null,
    lastActiveAt: record.lastActiveAt ?? null,
  };
}
