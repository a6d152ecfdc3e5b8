import { setting } from '../lib/config';
import { escapeHtml, sendMail } from '../lib/mail';

// Its own module, so that setting the new password (reset-password) reaches no mail client.
/** Like the verification mail, it names nobody: nothing a stranger typed appears in a mail from us. */
export async function sendPasswordResetMail(email: string, token: string): Promise<void> {
  // The token in the fragment: browsers never send it, so no CloudFront log holds it.
  const link = `${(await setting('APP_URL')).replace(/\/$/, '')}/reset-password#token=${encodeURIComponent(token)}`;
  const note = 'Someone asked to reset the password of the Switchboard account with this email address.';
  const after = 'The link works once and expires in 1 hour. If it was not you, ignore this mail: your password has not changed.';
  await sendMail({
    to: email,
    subject: 'Reset your Switchboard password',
    text: `Hello,\n\n${note}\nChoose a new password here:\n${link}\n\n${after}\n`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111827;line-height:1.5">
<p>Hello,</p>
<p>${note}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;background:#4f46e5;color:#fff;border-radius:6px;text-decoration:none">Choose a new password</a></p>
<p style="color:#6b7280;font-size:13px">Or open this link: ${escapeHtml(link)}<br>${after}</p>
</body></html>`,
  });
}
