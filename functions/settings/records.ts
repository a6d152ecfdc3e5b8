import type { Capabilities, Channel, Inbox, Provider, TeamUser } from '../../shared/contract/settings';
import type { UserRecord } from '../auth/accounts';

/** Stored shapes of the settings entities and their API views. */

export interface ProviderRecord {
  id: string;
  companyId: string;
  type: 'TWILIO';
  accountSid: string;
  authTokenEncrypted: string;
  apiKeySid: string;
  apiKeySecretEncrypted: string;
  twimlAppSid: string;
  webhookId: string;
  createdAt: string;
}

/** The number's own settings before import, so disconnecting can put them back. */
export interface PreviousNumberUrls {
  SmsUrl?: string;
  SmsMethod?: string;
  VoiceUrl?: string;
  VoiceMethod?: string;
  StatusCallback?: string;
  StatusCallbackMethod?: string;
}

export interface ChannelRecord {
  id: string;
  companyId: string;
  type: 'PHONE' | 'EMAIL';
  identifier: string;
  status: 'ACTIVE' | 'INACTIVE';
  capabilities: Capabilities;
  /** What import pointed at the platform. */
  enabled: { voice: boolean; sms: boolean };
  providerId: string | null;
  numberSid: string | null;
  previousUrls: PreviousNumberUrls;
  routingType: 'UNASSIGNED' | 'INBOX' | 'USER';
  routingTargetId: string | null;
  createdAt: string;
}

export interface InboxRecord {
  id: string;
  companyId: string;
  name: string;
  description: string | null;
  memberCount: number;
  createdAt: string;
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

export function toChannel(record: ChannelRecord, targetName: string | undefined): Channel {
  return {
    id: record.id,
    type: record.type,
    identifier: record.identifier,
    status: record.status,
    capabilities: record.capabilities,
    routingType: record.routingType,
    routingTargetId: record.routingTargetId,
    routingTarget: targetName === undefined ? null : { name: targetName },
    providerId: record.providerId,
    createdAt: record.createdAt,
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
