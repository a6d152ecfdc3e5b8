import type { SESv2Client } from '@aws-sdk/client-sesv2';
import { setting } from './config';

type SendEmailCommandClass = typeof import('@aws-sdk/client-sesv2').SendEmailCommand;

/**
 * Loaded on first send, not at cold start: the SES client is the heaviest import of the functions that
 * mail, and most of their calls never send. SES_ENDPOINT points the real client at the local emulator.
 */
let sdk: Promise<{ ses: SESv2Client; SendEmailCommand: SendEmailCommandClass }> | undefined;
function loadSes() {
  sdk ??= import('@aws-sdk/client-sesv2').then(({ SESv2Client, SendEmailCommand }) => ({
    ses: new SESv2Client(process.env.SES_ENDPOINT ? { endpoint: process.env.SES_ENDPOINT } : {}),
    SendEmailCommand,
  }));
  return sdk;
}

export interface Mail {
  to: string;
  subject: string;
  html: string;
  text: string;
}

export async function sendMail(mail: Mail): Promise<void> {
  // The sender first: a function without the mail capability fails here, before any client is made.
  const from = await setting('MAIL_FROM');
  const { ses, SendEmailCommand } = await loadSes();
  await ses.send(
    new SendEmailCommand({
      FromEmailAddress: from,
      // In AWS: SES records bounces and complaints of the app's mail (infra/constructs/mail-configuration.ts).
      ConfigurationSetName: process.env.MAIL_CONFIGURATION_SET || undefined,
      Destination: { ToAddresses: [mail.to] },
      Content: {
        Simple: {
          Subject: { Data: mail.subject, Charset: 'UTF-8' },
          Body: { Html: { Data: mail.html, Charset: 'UTF-8' }, Text: { Data: mail.text, Charset: 'UTF-8' } },
        },
      },
    }),
  );
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
