// Written by shared/contract/write-endpoints.ts from the contracts: do not edit.
/** Every HTTP contract without its schemas (route.ts, Endpoint): what the web app calls routes by. */
import type * as admin from './admin';
import type * as auth from './auth';
import type * as calls from './calls';
import type * as company from './company';
import type * as contacts from './contacts';
import type * as conversations from './conversations';
import type * as realtime from './realtime';
import type { Endpoint } from './route';
import type * as settings from './settings';
import type * as system from './system';
import type * as team from './team';
import type * as voice from './voice';

export const adminOverview: Endpoint<typeof admin.adminOverview> = {
  method: 'GET',
  path: '/api/v1/admin/overview',
  auth: 'platformAdmin',
};

export const repointWebhooks: Endpoint<typeof admin.repointWebhooks> = {
  method: 'POST',
  path: '/api/v1/admin/webhooks/repoint',
  auth: 'platformAdmin',
};

export const webhookAddress: Endpoint<typeof admin.webhookAddress> = {
  method: 'GET',
  path: '/api/v1/admin/webhooks',
  auth: 'platformAdmin',
};

export const login: Endpoint<typeof auth.login> = {
  method: 'POST',
  path: '/api/v1/auth/login',
  auth: 'public',
};

export const logout: Endpoint<typeof auth.logout> = {
  method: 'POST',
  path: '/api/v1/auth/logout',
  auth: 'public',
};

export const logoutAll: Endpoint<typeof auth.logoutAll> = {
  method: 'POST',
  path: '/api/v1/auth/logout-all',
  auth: 'user',
};

export const me: Endpoint<typeof auth.me> = {
  method: 'GET',
  path: '/api/v1/me',
  auth: 'user',
};

export const refresh: Endpoint<typeof auth.refresh> = {
  method: 'POST',
  path: '/api/v1/auth/refresh',
  auth: 'public',
};

export const register: Endpoint<typeof auth.register> = {
  method: 'POST',
  path: '/api/v1/auth/register',
  auth: 'public',
};

export const resendVerification: Endpoint<typeof auth.resendVerification> = {
  method: 'POST',
  path: '/api/v1/auth/resend-verification',
  auth: 'public',
};

export const verifyEmail: Endpoint<typeof auth.verifyEmail> = {
  method: 'POST',
  path: '/api/v1/auth/verify-email',
  auth: 'public',
};

export const listCalls: Endpoint<typeof calls.listCalls> = {
  method: 'GET',
  path: '/api/v1/calls',
  auth: 'user',
};

export const adminDeleteCompany: Endpoint<typeof company.adminDeleteCompany> = {
  method: 'DELETE',
  path: '/api/v1/admin/companies/{id}',
  auth: 'platformAdmin',
};

export const deleteCompany: Endpoint<typeof company.deleteCompany> = {
  method: 'DELETE',
  path: '/api/v1/company',
  auth: 'user',
};

export const getRetention: Endpoint<typeof company.getRetention> = {
  method: 'GET',
  path: '/api/v1/company/retention',
  auth: 'user',
};

export const updateRetention: Endpoint<typeof company.updateRetention> = {
  method: 'PUT',
  path: '/api/v1/company/retention',
  auth: 'user',
};

export const createContact: Endpoint<typeof contacts.createContact> = {
  method: 'POST',
  path: '/api/v1/contacts',
  auth: 'user',
};

export const deleteContact: Endpoint<typeof contacts.deleteContact> = {
  method: 'DELETE',
  path: '/api/v1/contacts/{id}',
  auth: 'user',
};

export const listContacts: Endpoint<typeof contacts.listContacts> = {
  method: 'GET',
  path: '/api/v1/contacts',
  auth: 'user',
};

export const updateContact: Endpoint<typeof contacts.updateContact> = {
  method: 'PUT',
  path: '/api/v1/contacts/{id}',
  auth: 'user',
};

export const getConversation: Endpoint<typeof conversations.getConversation> = {
  method: 'GET',
  path: '/api/v1/conversations/{id}',
  auth: 'user',
};

export const inboundSmsWebhook: Endpoint<typeof conversations.inboundSmsWebhook> = {
  method: 'POST',
  path: '/webhooks/twilio/{webhookId}/sms',
  auth: 'twilio',
};

export const listConversations: Endpoint<typeof conversations.listConversations> = {
  method: 'GET',
  path: '/api/v1/conversations',
  auth: 'user',
};

export const retryMessage: Endpoint<typeof conversations.retryMessage> = {
  method: 'POST',
  path: '/api/v1/conversations/{id}/messages/{messageId}/retry',
  auth: 'user',
};

export const sendMessage: Endpoint<typeof conversations.sendMessage> = {
  method: 'POST',
  path: '/api/v1/conversations/{id}/messages',
  auth: 'user',
};

export const smsStatusWebhook: Endpoint<typeof conversations.smsStatusWebhook> = {
  method: 'POST',
  path: '/webhooks/twilio/{webhookId}/sms/status',
  auth: 'twilio',
};

export const updateConversationStatus: Endpoint<typeof conversations.updateConversationStatus> = {
  method: 'PATCH',
  path: '/api/v1/conversations/{id}/status',
  auth: 'user',
};

export const realtimeTicket: Endpoint<typeof realtime.realtimeTicket> = {
  method: 'POST',
  path: '/api/v1/realtime/ticket',
  auth: 'user',
};

export const addInboxMember: Endpoint<typeof settings.addInboxMember> = {
  method: 'POST',
  path: '/api/v1/inboxes/{id}/members',
  auth: 'user',
};

export const availableNumbers: Endpoint<typeof settings.availableNumbers> = {
  method: 'GET',
  path: '/api/v1/providers/{id}/available-numbers',
  auth: 'user',
};

export const connectTwilio: Endpoint<typeof settings.connectTwilio> = {
  method: 'POST',
  path: '/api/v1/providers/twilio',
  auth: 'user',
};

export const createInbox: Endpoint<typeof settings.createInbox> = {
  method: 'POST',
  path: '/api/v1/inboxes',
  auth: 'user',
};

export const deleteInbox: Endpoint<typeof settings.deleteInbox> = {
  method: 'DELETE',
  path: '/api/v1/inboxes/{id}',
  auth: 'user',
};

export const disconnectProvider: Endpoint<typeof settings.disconnectProvider> = {
  method: 'DELETE',
  path: '/api/v1/providers/{id}',
  auth: 'user',
};

export const getInbox: Endpoint<typeof settings.getInbox> = {
  method: 'GET',
  path: '/api/v1/inboxes/{id}',
  auth: 'user',
};

export const getInboxRouting: Endpoint<typeof settings.getInboxRouting> = {
  method: 'GET',
  path: '/api/v1/inboxes/{id}/routing',
  auth: 'user',
};

export const importChannels: Endpoint<typeof settings.importChannels> = {
  method: 'POST',
  path: '/api/v1/providers/{id}/import-channels',
  auth: 'user',
};

export const listChannels: Endpoint<typeof settings.listChannels> = {
  method: 'GET',
  path: '/api/v1/channels',
  auth: 'user',
};

export const listInboxes: Endpoint<typeof settings.listInboxes> = {
  method: 'GET',
  path: '/api/v1/inboxes',
  auth: 'user',
};

export const listProviders: Endpoint<typeof settings.listProviders> = {
  method: 'GET',
  path: '/api/v1/providers',
  auth: 'user',
};

export const listUsers: Endpoint<typeof settings.listUsers> = {
  method: 'GET',
  path: '/api/v1/users',
  auth: 'user',
};

export const removeInboxMember: Endpoint<typeof settings.removeInboxMember> = {
  method: 'DELETE',
  path: '/api/v1/inboxes/{id}/members/{userId}',
  auth: 'user',
};

export const saveInboxRouting: Endpoint<typeof settings.saveInboxRouting> = {
  method: 'POST',
  path: '/api/v1/inboxes/{id}/routing',
  auth: 'user',
};

export const updateChannelRouting: Endpoint<typeof settings.updateChannelRouting> = {
  method: 'PATCH',
  path: '/api/v1/channels/{id}/routing',
  auth: 'user',
};

export const health: Endpoint<typeof system.health> = {
  method: 'GET',
  path: '/api/v1/health',
  auth: 'public',
};

export const acceptInvitation: Endpoint<typeof team.acceptInvitation> = {
  method: 'POST',
  path: '/api/v1/invitations/accept',
  auth: 'public',
};

export const createInvitation: Endpoint<typeof team.createInvitation> = {
  method: 'POST',
  path: '/api/v1/invitations',
  auth: 'user',
};

export const listInvitations: Endpoint<typeof team.listInvitations> = {
  method: 'GET',
  path: '/api/v1/invitations',
  auth: 'user',
};

export const previewInvitation: Endpoint<typeof team.previewInvitation> = {
  method: 'POST',
  path: '/api/v1/invitations/preview',
  auth: 'public',
};

export const removeUser: Endpoint<typeof team.removeUser> = {
  method: 'DELETE',
  path: '/api/v1/users/{id}',
  auth: 'user',
};

export const resendInvitation: Endpoint<typeof team.resendInvitation> = {
  method: 'POST',
  path: '/api/v1/invitations/{id}/resend',
  auth: 'user',
};

export const revokeInvitation: Endpoint<typeof team.revokeInvitation> = {
  method: 'DELETE',
  path: '/api/v1/invitations/{id}',
  auth: 'user',
};

export const updateUserRole: Endpoint<typeof team.updateUserRole> = {
  method: 'PATCH',
  path: '/api/v1/users/{id}',
  auth: 'user',
};

export const callStatusWebhook: Endpoint<typeof voice.callStatusWebhook> = {
  method: 'POST',
  path: '/webhooks/twilio/{webhookId}/voice/status',
  auth: 'twilio',
};

export const companySettings: Endpoint<typeof voice.companySettings> = {
  method: 'GET',
  path: '/api/v1/company/settings',
  auth: 'user',
};

export const dialResultWebhook: Endpoint<typeof voice.dialResultWebhook> = {
  method: 'POST',
  path: '/webhooks/twilio/{webhookId}/voice/dial-result',
  auth: 'twilio',
};

export const inboundCallWebhook: Endpoint<typeof voice.inboundCallWebhook> = {
  method: 'POST',
  path: '/webhooks/twilio/{webhookId}/voice',
  auth: 'twilio',
};

export const listCallerIds: Endpoint<typeof voice.listCallerIds> = {
  method: 'GET',
  path: '/api/v1/voice/caller-ids',
  auth: 'user',
};

export const outboundCallWebhook: Endpoint<typeof voice.outboundCallWebhook> = {
  method: 'POST',
  path: '/webhooks/twilio/{webhookId}/voice/outbound',
  auth: 'twilio',
};

export const updateCallingSettings: Endpoint<typeof voice.updateCallingSettings> = {
  method: 'PUT',
  path: '/api/v1/company/settings/calling',
  auth: 'user',
};

export const voiceToken: Endpoint<typeof voice.voiceToken> = {
  method: 'POST',
  path: '/api/v1/voice/token',
  auth: 'user',
};
