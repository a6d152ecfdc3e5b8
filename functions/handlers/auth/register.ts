import { register } from '../../../shared/contract/auth';
import { createCompanyWithOwner, toCompany, toUser } from '../../auth/accounts';
import { hashPassword } from '../../auth/passwords';
import { newVerification, sendVerificationMail } from '../../auth/verification';
import { defineHandler } from '../../lib/define-handler';
import { logError } from '../../lib/log';

export const handler = defineHandler(register, async ({ body, requestId }) => {
  const verification = newVerification();
  const { user, company } = await createCompanyWithOwner({
    companyName: body.companyName,
    name: body.name,
    email: body.email,
    passwordHash: await hashPassword(body.password),
    verification,
  });
  let emailSent = true;
  try {
    await sendVerificationMail(user, verification.token);
  } catch (error) {
    // The account exists either way; the person can ask for the mail again.
    emailSent = false;
    logError({ requestId, route: 'register', companyId: company.id, note: 'verification mail not sent' }, error);
  }
  return {
    status: 201,
    data: { user: toUser(user), company: toCompany(company), emailSent },
    message: emailSent
      ? 'Registration successful. Please check your email to verify your account.'
      : 'Registration successful, but we could not send the verification email. Please request a new one.',
  };
});
