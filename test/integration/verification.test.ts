import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { hashOpaqueToken } from '../../functions/auth/opaque-tokens';
import { keys } from '../../functions/lib/table';
import {
  api,
  callRoute,
  mailTo,
  newClientAddress,
  signUp,
  unchecked,
  uniqueEmail,
  verificationToken,
  verifyEmail,
} from '../support/api';
import { endpoints } from '../support/endpoints';
import { testTable } from '../support/table';

async function register(email = uniqueEmail()) {
  const res = await callRoute(endpoints.register, {
    body: { companyName: 'Umbrella', name: 'Alice', email, password: 'long enough pw' },
    address: newClientAddress(),
  });
  expect(res.status).toBe(201);
  const [mail] = await mailTo(email);
  return { email, token: verificationToken(mail as NonNullable<typeof mail>) };
}

describe('e-mail verification', () => {
  it('needs a token', async () => {
    const res = await callRoute(endpoints.verifyEmail, { body: unchecked({}) });
    expect(res.status).toBe(400);
    expect(res.body.error.details?.fields).toEqual({ token: 'Verification token is required' });
  });

  it('takes the token in a POST body only: a token in the URL is refused with 405 and stays unspent', async () => {
    const { token } = await register();
    // The route's path asked with GET and the token in the query: a request no endpoint makes.
    const inUrl = await api(`${endpoints.verifyEmail.path}?token=${token}`);
    expect(inUrl.status).toBe(405);
    expect(inUrl.body.error).toEqual({
      code: 'METHOD_NOT_ALLOWED',
      message: `Method GET is not allowed for ${endpoints.verifyEmail.path}; use ${endpoints.verifyEmail.method}`,
    });
    expect(inUrl.body.data).toBeUndefined();
    expect((await verifyEmail(token)).status).toBe(200);
  });

  it('works once; a second click is refused without a resend offer', async () => {
    const { token } = await register();
    expect((await verifyEmail(token)).status).toBe(200);
    const again = await verifyEmail(token);
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('INVALID_TOKEN');
    expect(again.body.error.details).toEqual({ canResend: false });
  });

  it('refuses an unknown token', async () => {
    const res = await verifyEmail('AAAAAAAAAAAAAAAAAAAAAA');
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual({ canResend: false });
  });

  it('answers an expired link with canResend, and the resent link works', async () => {
    const { email, token } = await register();
    const { client, tableName } = testTable();
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.verification(hashOpaqueToken(token)),
        UpdateExpression: 'SET validUntil = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );
    const expired = await verifyEmail(token);
    expect(expired.status).toBe(400);
    expect(expired.body.error.message).toMatch(/expired/);
    expect(expired.body.error.details).toEqual({ canResend: true });

    const resent = await callRoute(endpoints.resendVerification, { body: { email }, address: newClientAddress() });
    expect(resent.status).toBe(200);
    const mails = await mailTo(email);
    expect(mails).toHaveLength(2);
    const fresh = verificationToken(mails[1] as NonNullable<(typeof mails)[1]>);
    expect(fresh).not.toBe(token);
    expect((await verifyEmail(fresh)).status).toBe(200);
  });
});

describe('resending the verification mail', () => {
  it('voids the previous link, and no link of a verified account signs anyone in', async () => {
    const { email, token: first } = await register();
    const resend = () => callRoute(endpoints.resendVerification, { body: { email }, address: newClientAddress() });
    expect((await resend()).status).toBe(200);
    const second = verificationToken((await mailTo(email))[1] as NonNullable<Awaited<ReturnType<typeof mailTo>>[1]>);

    const voided = await verifyEmail(first);
    expect(voided.status).toBe(400);
    expect(voided.body.error.details).toEqual({ canResend: false });
    expect((await verifyEmail(second)).status).toBe(200);

    // Once verified, neither link is a way in, and a resend mails nothing.
    for (const token of [first, second]) {
      const res = await verifyEmail(token);
      expect(res.status).toBe(400);
      expect(res.body.data).toBeUndefined();
    }
    expect((await resend()).status).toBe(200);
    expect(await mailTo(email)).toHaveLength(2);
  });

  it('answers the same whether or not the address has an account, and mails only a waiting account', async () => {
    const verified = await signUp();
    const nobody = uniqueEmail('nobody');
    const answers = await Promise.all(
      [verified.email, nobody].map((email) =>
        callRoute(endpoints.resendVerification, { body: { email }, address: newClientAddress() }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers[0]?.body).toEqual(answers[1]?.body);
    expect(await mailTo(nobody)).toHaveLength(0);
    expect(await mailTo(verified.email)).toHaveLength(1);
  });

  it('is rate limited per address with a clear message', async () => {
    const email = uniqueEmail();
    const address = newClientAddress();
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof api>> | undefined;
    for (let i = 0; i < 4; i++) {
      last = await callRoute(endpoints.resendVerification, { body: { email }, address });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last?.body.error.message).toMatch(/Too many verification emails requested\. Please try again in \d+ minutes?\./);
  });

  it('validates the e-mail', async () => {
    const res = await callRoute(endpoints.resendVerification, { body: { email: 'nope' }, address: newClientAddress() });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Enter a valid email address');
  });
});
