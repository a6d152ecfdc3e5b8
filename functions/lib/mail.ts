import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { setting } from './config';

/** SES_ENDPOINT points the real SES v2 client at the local emulator. */
const ses = new SESv2Client(process.env.SES_ENDPOINT ? { endpoint: process.env.SES_ENDPOINT } : {});

export interface Mail {
  to: string;
  subject: string;
  html: string;
  text: string;
}

export async function sendMail(mail: Mail): Promise<void> {
  const { ses, SendEmailCommand } = await loadSes();
  await ses.send(
    new SendEmailCommand({
      FromEmailAddress: await setting('MAIL_FROM'),
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
