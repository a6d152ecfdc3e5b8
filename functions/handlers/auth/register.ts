import { register } from '@shared/contract/auth';
import { registrationsPerAddress, registrationsPerEmail } from '../../auth/limits';
import { newId } from '../../auth/opaque-tokens';
import { registerAccount } from '../../auth/registration';
import { sendAccountExistsMail, sendVerificationMail } from '../../auth/verification';
import { defineHandler } from '../../lib/define-handler';
import { logError } from '../../lib/log';
import { consume } from '../../lib/throttle';

/**
 * Answers alike whatever the address's state (new, waiting for verification, verified): the account
 * described is the one this request would create, and nothing about the address (an existing account,
 * platform administration) shows before its owner has verified it. Throttled before any hashing.
 */
export const handler = defineHandler(register, async ({ body, sourceIp, requestId }) => {
  await consume(registrationsPerAddress, sourceIp);
  await consume(registrationsPerEmail, body.email);
  const outcome = await registerAccount(body);
  const ids =
    outcome.kind === 'created'
      ? { userId: outcome.user.id, companyId: outcome.company.id }
      : { userId: newId(), companyId: newId() };
  let emailSent = true;
  try {
    if (outcome.kind === 'created') await sendVerificationMail(body.email, outcome.verificationToken);
    else await sendAccountExistsMail(body.email);
  } catch (error) {
    // The account exists either way; the person can ask for the mail again.
    emailSent = false;
    logError({ requestId, route: 'register', note: 'registration mail not sent' }, error);
  }
  return {
    status: 201,
    data: {
      user: {
        id: ids.userId,
        companyId: ids.companyId,
        name: body.name,
        email: body.email,
        emailVerified: false,
        role: 'OWNER' as const,
        avatarUrl: null,
        lastActiveAt: null,
        isPlatformAdmin: false,
      },
      company: { id: ids.companyId, name: body.companyName },
      emailSent,
    },
    message: emailSent
      ? 'Registration successful. Please check your email to verify your account.'
      : 'Registration successful, but we could not send the verification email. Please request a new one.',
  };
});
