import { INVITATION_TTL_SECONDS } from '../../shared/constants';
import { setting } from '../lib/config';
import { escapeHtml, sendMail } from '../lib/mail';

const ROLE_WORDS = { ADMIN: 'an admin', AGENT: 'an agent' } as const;

/**
 * Names typed by people travel into a mail to someone else: one line, at most 60 characters, escaped,
 * never a link, so a crafted company or user name cannot read as instructions or phishing.
 */
function mailText(text: string): string {
  const line = text.replace(/[\p{Cc}\p{Cf}\s]+/gu, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

export async function sendInvitationMail(input: {
  to: string;
  inviterName: string;
  companyName: string;
  role: keyof typeof ROLE_WORDS;
  token: string;
}): Promise<void> {
  // The token in the fragment: browsers never send it, so no CloudFront log holds it.
  const link = `${(await setting('APP_URL')).replace(/\/$/, '')}/accept-invite#token=${encodeURIComponent(input.token)}`;
  const inviter = mailText(input.inviterName);
  const company = mailText(input.companyName);
  const days = INVITATION_TTL_SECONDS / 86_400;
  const role = ROLE_WORDS[input.role];
  await sendMail({
    to: input.to,
    subject: `${inviter} invited you to ${company} on Switchboard`,
    text: `Hello,\n\n"${inviter}" invited you to join "${company}" on Switchboard as ${role}.\n\nAccept the invitation and choose your password here:\n${link}\n\nThe link works once and expires in ${days} days. If you did not expect this invitation, ignore this mail.\n`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111827;line-height:1.5">
<p>Hello,</p>
<p><strong>${escapeHtml(inviter)}</strong> invited you to join <strong>${escapeHtml(company)}</strong> on Switchboard as ${role}.</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;background:#4f46e5;color:#fff;border-radius:6px;text-decoration:none">Accept invitation</a></p>
<p style="color:#6b7280;font-size:13px">Or open this link: ${escapeHtml(link)}<br>It works once and expires in ${days} days. If you did not expect this invitation, ignore this mail.</p>
</body></html>`,
  });
}
