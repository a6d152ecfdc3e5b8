import { login } from '../../../shared/contract/auth';
import { findUserByEmail, getCompany, toCompany, toUser, touchLastActive } from '../../auth/accounts';
import { loginFailuresPerAccount, loginFailuresPerAddress } from '../../auth/limits';
import { burnPasswordCheck, verifyPassword } from '../../auth/passwords';
import { startSession } from '../../auth/sessions';
import { AppError, unauthorized } from '../../lib/app-error';
import { defineHandler } from '../../lib/define-handler';
import { assertUnderLimit, countEvent } from '../../lib/throttle';

const invalidCredentials = () => unauthorized('Invalid email or password', 'INVALID_CREDENTIALS');

export const handler = defineHandler(login, async ({ body, sourceIp }) => {
  await Promise.all([assertUnderLimit(loginFailuresPerAddress, sourceIp), assertUnderLimit(loginFailuresPerAccount, body.email)]);

  const user = await findUserByEmail(body.email);
  let valid = false;
  if (user) valid = await verifyPassword(body.password, user.passwordHash);
  else await burnPasswordCheck(body.password);
  if (!user || !valid) {
    await Promise.all([countEvent(loginFailuresPerAddress, sourceIp), countEvent(loginFailuresPerAccount, body.email)]);
    throw invalidCredentials();
  }
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
