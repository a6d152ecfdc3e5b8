import { resendVerification } from '@shared/contract/auth';
import { findUserByEmail } from '../../auth/accounts';
import { resendsPerAccount, resendsPerAddress } from '../../auth/limits';
import { newVerification, replaceVerification, sendVerificationMail } from '../../auth/verification';
import { defineHandler } from '../../lib/define-handler';
import { consume } from '../../lib/throttle';

/** The answer is the same whether or not the address has an account, so it reveals nothing. */
export const handler = defineHandler(resendVerification, async ({ body, sourceIp }) => {
  await consume(resendsPerAddress, sourceIp);
  await consume(resendsPerAccount, body.email);
  const user = await findUserByEmail(body.email);
  if (user && !user.emailVerified) {
    const verification = newVerification();
    if (await replaceVerification(user, verification)) await sendVerificationMail(user.email, verification.token);
  }
  return {
    data: {},
    message: 'If an account with that email is waiting for verification, a new verification email is on its way.',
  };
});
