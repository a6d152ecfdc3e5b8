import { useForgotPassword } from '../api/auth-api';
import { EmailLinkRequest } from './email-link-request';

/** /forgot-password: the answer is the same whether or not the address has an account (docs/product.md: Account self-service). */
export function ForgotPasswordPage() {
  return (
    <EmailLinkRequest
      request={useForgotPassword()}
      title="Forgot your password?"
      description="Enter your email and we'll send you a link to choose a new one."
      submitLabel="Send reset link"
      sent="If an account uses that email, a reset link is on its way."
      failed="Failed to send the reset email"
      focusFirst
    />
  );
}
