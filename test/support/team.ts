import type { InvitableRole, Invitation } from '../../shared/contract/team';
import { type Account, callRoute, mailTo, type SentMail, uniqueEmail } from './api';
import { endpoints } from './endpoints';

export function invitationToken(mail: SentMail): string {
  const match = /accept-invite[?#]token=([\w-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`No invitation link in: ${mail.text}`);
  return match[1];
}

/** The newest invitation mail an address received. */
export async function latestInvitationToken(email: string): Promise<string> {
  const mails = (await mailTo(email)).filter((m) => m.text.includes('accept-invite'));
  const mail = mails.at(-1);
  if (!mail) throw new Error(`no invitation mail for ${email}`);
  return invitationToken(mail);
}

export async function invite(
  by: Account,
  email: string,
  role: InvitableRole = 'AGENT',
  { origin }: { origin?: string } = {},
): Promise<Invitation> {
  const res = await callRoute(endpoints.createInvitation, { token: by.tokens.accessToken, body: { email, role }, origin });
  if (res.status !== 201) throw new Error(`invite failed: ${JSON.stringify(res.body)}`);
  return res.body.data.invitation;
}

/**
 * A colleague in the owner's company, the way people join: invited by e-mail, accepting the mailed
 * link with a name and a password. Returns the colleague's signed-in session. `origin`: through a
 * gateway of the test's own.
 */
export async function addTeamMember(
  owner: Account,
  options: { role?: InvitableRole; name?: string; email?: string; origin?: string } = {},
): Promise<Account> {
  const email = options.email ?? uniqueEmail('colleague');
  const password = 'colleague password 1';
  const { origin } = options;
  await invite(owner, email, options.role ?? 'AGENT', { origin });
  const accepted = await callRoute(endpoints.acceptInvitation, {
    body: { token: await latestInvitationToken(email), name: options.name ?? 'Grace Hopper', password },
    origin,
  });
  if (accepted.status !== 201) throw new Error(`accept failed: ${JSON.stringify(accepted.body)}`);
  return { email, password, ...accepted.body.data };
}
