import { useResendVerification } from '../api/auth-api';
import { EmailLinkRequest } from './email-link-request';

export function ResendVerificationPage() {
  return (
    <EmailLinkRequest
      request={useResendVerification()}
      title="Resend verification email"
      description="Enter the email you signed up with and we'll send a new link."
      submitLabel="Send verification email"
      sent="A new verification email is on its way."
      failed="Failed to send verification email"
    />
  );
}
