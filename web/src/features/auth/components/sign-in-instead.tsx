import type { ReactNode } from 'react';
import { TextLink } from './text-link';

const SIGN_IN_INSTEAD = 'Sign in instead.';

/** A server message that ends by suggesting to sign in ('…already exists. Sign in instead.') gets that as a real link. */
export function withSignInLink(message: string): ReactNode {
  if (!message.endsWith(SIGN_IN_INSTEAD)) return message;
  return (
    <>
      {message.slice(0, -SIGN_IN_INSTEAD.length)}
      <TextLink to="/login">{SIGN_IN_INSTEAD}</TextLink>
    </>
  );
}
