import { login } from '@shared/contract/auth';
import { findUserByEmail, getCompany, toCompany, toUser, touchLastActive } from '../../auth/accounts';
import { loginDelayMessage, loginDelayMs, loginFailuresPerAccount, loginFailuresPerAddress } from '../../auth/limits';
import { burnPasswordCheck, verifyPassword } from '../../auth/passwords';
import { removedMemberSignIn } from '../../auth/removed-members';
import { startSession } from '../../auth/sessions';
import { AppError, tooManyRequests, unauthorized } from '../../lib/app-error';
import { defineHandler } from '../../lib/define-handler';
import { claimSlot, consume, countEvent, uncount } from '../../lib/throttle';

const invalidCredentials = () => unauthorized('Invalid email or password', 'INVALID_CREDENTIALS');

/**
 * Every attempt is counted before its password is checked (atomic counters), and taken back when it
 * succeeds. One address gets a fixed number of failures (spraying stops there); an account attacked
 * from many addresses is slowed down by growing delays instead of locked, so a stranger failing on
 * purpose cannot keep its owner out.
 */
export const handler = defineHandler(login, async ({ body, sourceIp }) => {
  await consume(loginFailuresPerAddress, sourceIp);
  const failures = await countEvent(loginFailuresPerAccount, body.email);
  const uncounted = () => Promise.all([uncount(loginFailuresPerAddress, sourceIp), uncount(loginFailuresPerAccount, body.email)]);
  const delay = loginDelayMs(failures);
  if (delay > 0) {
    const wait = await claimSlot(loginFailuresPerAccount, body.email, delay);
    if (wait > 0) {
      await uncounted();
      throw tooManyRequests(loginDelayMessage(wait), wait / 1000);
    }
  }

  const user = await findUserByEmail(body.email);
  if (!user) {
    // Only with the right password is a removed member told where they were removed from.
    const removed = await removedMemberSignIn(body.email, {
      verify: (hash) => verifyPassword(body.password, hash),
      burn: () => burnPasswordCheck(body.password),
    });
    if (removed) await uncounted();
    throw removed || invalidCredentials();
  }
  if (!(await verifyPassword(body.password, user.passwordHash))) throw invalidCredentials();
  await uncounted();
  // Only after the password is right, so this answer never tells a stranger the address exists.
  if (!user.emailVerified) {
    throw new AppError(
      403,
      'EMAIL_NOT_VERIFIED',
      'Please verify your email before signing in. Check your inbox for the verification link.',
    );
  }
  const company = await getCompany(user.companyId);
  if (!company) throw invalidCredentials();
  const signedIn = await touchLastActive(user);
  return { data: { user: toUser(signedIn), company: toCompany(company), tokens: await startSession(signedIn) } };
});
