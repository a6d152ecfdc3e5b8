// Written by shared/contract/write-endpoints.ts from the contracts: do not edit.
/** The HTTP contracts of conversations.ts without their schemas (route.ts, Endpoint): what the web app calls them by. */
import type * as contracts from '../conversations';
import type { Endpoint } from '../route';

export const addNote: Endpoint<typeof contracts.addNote> = {
  method: 'POST',
  path: '/api/v1/conversations/{id}/notes',
  auth: 'user',
};

export const assignConversation: Endpoint<typeof contracts.assignConversation> = {
  method: 'PATCH',
  path: '/api/v1/conversations/{id}/assignee',
  auth: 'user',
};

export const createPictureUpload: Endpoint<typeof contracts.createPictureUpload> = {
  method: 'POST',
  path: '/api/v1/picture-uploads',
  auth: 'user',
};

export const getConversation: Endpoint<typeof contracts.getConversation> = {
  method: 'GET',
  path: '/api/v1/conversations/{id}',
  auth: 'user',
};

export const inboundSmsWebhook: Endpoint<typeof contracts.inboundSmsWebhook> = {
  method: 'POST',
  path: '/webhooks/twilio/{webhookId}/sms',
  auth: 'twilio',
};

export const listConversations: Endpoint<typeof contracts.listConversations> = {
  method: 'GET',
  path: '/api/v1/conversations',
  auth: 'user',
};

export const listSendingNumbers: Endpoint<typeof contracts.listSendingNumbers> = {
  method: 'GET',
  path: '/api/v1/conversations/sending-numbers',
  auth: 'user',
};

export const markConversationRead: Endpoint<typeof contracts.markConversationRead> = {
  method: 'POST',
  path: '/api/v1/conversations/{id}/read',
  auth: 'user',
};

export const messageMedia: Endpoint<typeof contracts.messageMedia> = {
  method: 'GET',
  path: '/api/v1/conversations/{id}/messages/{messageId}/media/{index}',
  auth: 'user',
};

export const retryMessage: Endpoint<typeof contracts.retryMessage> = {
  method: 'POST',
  path: '/api/v1/conversations/{id}/messages/{messageId}/retry',
  auth: 'user',
};

export const sendMessage: Endpoint<typeof contracts.sendMessage> = {
  method: 'POST',
  path: '/api/v1/conversations/{id}/messages',
  auth: 'user',
};

export const smsStatusWebhook: Endpoint<typeof contracts.smsStatusWebhook> = {
  method: 'POST',
  path: '/webhooks/twilio/{webhookId}/sms/status',
  auth: 'twilio',
};

export const startConversation: Endpoint<typeof contracts.startConversation> = {
  method: 'POST',
  path: '/api/v1/conversations',
  auth: 'user',
};

export const unreadConversations: Endpoint<typeof contracts.unreadConversations> = {
  method: 'GET',
  path: '/api/v1/conversations/unread',
  auth: 'user',
};

export const updateConversationStatus: Endpoint<typeof contracts.updateConversationStatus> = {
  method: 'PATCH',
  path: '/api/v1/conversations/{id}/status',
  auth: 'user',
};
