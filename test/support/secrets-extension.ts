import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the AWS Parameters and Secrets Lambda extension on its localhost port (it cannot run
 * here): it answers GetSecretValue as the real one relays Secrets Manager — AWSCURRENT with the value
 * and its creation date (epoch seconds), 400 for an AWSPREVIOUS that does not exist (a secret never
 * rotated), 403 without the session token — and counts the requests per secret and stage.
 */
export interface StoredSecret {
  current: { value: string; createdAt: Date };
  previous?: string;
  /** Answers 500 to the next this many requests, as the extension does when Secrets Manager fails. */
  failures?: number;
}

export const EXTENSION_SESSION_TOKEN = 'session';

export async function startSecretsExtension() {
  const secrets = new Map<string, StoredSecret>();
  const requests = new Map<string, number>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const arn = url.searchParams.get('secretId') ?? '';
    const stage = url.searchParams.get('versionStage') ?? 'AWSCURRENT';
    requests.set(`${arn} ${stage}`, (requests.get(`${arn} ${stage}`) ?? 0) + 1);
    const secret = secrets.get(arn);
    if (req.headers['x-aws-parameters-secrets-token'] !== EXTENSION_SESSION_TOKEN || !secret) {
      res.writeHead(403).end();
      return;
    }
    if (secret.failures) {
      secret.failures--;
      res.writeHead(500).end('InternalServiceError');
      return;
    }
    const body =
      stage === 'AWSPREVIOUS'
        ? secret.previous && { SecretString: secret.previous }
        : { SecretString: secret.current.value, CreatedDate: secret.current.createdAt.getTime() / 1000 };
    if (!body) {
      res.writeHead(400).end('ResourceNotFoundException');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    secrets,
    /** Requests so far for a secret at a stage. */
    requests: (arn: string, stage: 'AWSCURRENT' | 'AWSPREVIOUS') => requests.get(`${arn} ${stage}`) ?? 0,
    /** The environment a function reads the extension with (PARAMETERS_SECRETS_EXTENSION_HTTP_PORT, the token). */
    env: {
      PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: String((server.address() as AddressInfo).port),
      AWS_SESSION_TOKEN: EXTENSION_SESSION_TOKEN,
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
