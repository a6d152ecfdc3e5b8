import { forgotPassword } from '@shared/contract/account';
import { findUserByEmail } from '../../auth/accounts';
import { passwordResetsPerAddress, passwordResetsPerEmail } from '../../auth/limits';
import { newPasswordReset } from '../../auth/password-reset';
import { sendPasswordResetMail } from '../../auth/password-reset-mail';
import { defineHandler } from '../../lib/define-handler';
import { consume } from '../../lib/throttle';

/** The answer is the same whether or not the address has an account, limits included (auth/limits). */
export const handler = defineHandler(forgotPassword, async ({ body, sourceIp }) => {
  await consume(passwordResetsPerAddress, sourceIp);
  await consume(passwordResetsPerEmail, body.email);
  const user = await findUserByEmail(body.email);
  if (user) {
    const token = await newPasswordReset(user);
    if (token) await sendPasswordResetMail(user.email, token);
  }
  return {
    data: {},
    status: 202,
    message: 'If an account uses that email, a link to reset its password is on its way. It works for 1 hour.',
  };
});
