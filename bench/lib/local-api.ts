import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Tokens } from '../../shared/contract/auth';
import type { Table } from '../../test/support/conversations';

/** The local stack's API as the benchmarks use it: JSON calls, and a verified owner signed up the way anyone signs up. */
export function localApi(urls: { api: string; mail: string }) {
  async function call<T>(path: string, init: { method?: 'GET' | 'POST'; body?: unknown; token?: string } = {}): Promise<T> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    const res = await fetch(`${urls.api}${path}`, {
      method: init.method ?? 'POST',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const body = (await res.json()) as { data: T };
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(body)}`);
    return body.data;
  }

  /**
   * Register, then the mailed link; `label` names the company, so a bench can sign up several. `email`
   * picks the address (a platform administrator's, say).
   */
  async function signUp(
    label = 'Co',
    email = `bench-${label.toLowerCase()}-${randomUUID().slice(0, 8)}@example.test`,
  ): Promise<{ companyId: string; userId: string; accessToken: string }> {
    await call('/api/v1/auth/register', {
      body: { companyName: `Bench ${label}`, name: 'Bench User', email, password: 'bench password 1' },
    });
    const verified = await call<{ user: { id: string; companyId: string }; tokens: Tokens }>('/api/v1/auth/verify-email', {
      // The link carries its token in the fragment, and the web app posts it.
      body: { token: await mailedToken(email, /verify-email[?#]token=([\w-]+)/) },
    });
    return { companyId: verified.user.companyId, userId: verified.user.id, accessToken: verified.tokens.accessToken };
  }

  /** The token of the newest mail to `email` matching `pattern`: mail goes out from a background job, so it is waited for. */
  async function mailedToken(email: string, pattern: RegExp): Promise<string> {
    for (const started = Date.now(); Date.now() - started < 30_000; ) {
      const store = (await (await fetch(`${urls.mail}/store`)).json()) as {
        emails: { destination: { to: string[] }; body: { text?: string } }[];
      };
      const text = store.emails.findLast((m) => m.destination.to.includes(email))?.body.text ?? '';
      const token = pattern.exec(text)?.[1];
      if (token) return token;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no mailed link for ${email} within 30 s`);
  }

  return { call, signUp, mailedToken };
}

export type BenchAccount = Awaited<ReturnType<ReturnType<typeof localApi>['signUp']>>;

/** The value below which `p` percent of the samples fall (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** The bench stack's table, for seeding with BatchWrite. */
export function benchTable(env: Record<string, string>): Table {
  return {
    client: DynamoDBDocumentClient.from(
      new DynamoDBClient({
        endpoint: env.DYNAMODB_ENDPOINT,
        region: env.AWS_REGION,
        credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID ?? '', secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? '' },
      }),
    ),
    tableName: env.TABLE_NAME ?? '',
  };
}
