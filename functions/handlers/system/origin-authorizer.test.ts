import { esbuildOptions, handlerEntry } from '@infra/bundling';
import { me } from '@shared/contract/endpoints/auth';
import { startSecretsExtension } from '@test/support/secrets-extension';
import type { APIGatewayRequestAuthorizerEvent, APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import { build } from 'esbuild';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ORIGIN_SECRET_HEADER } from '../../lib/config';
import { originAuthorizer } from '../../routes';
import { handler } from './origin-authorizer';

/** What the HTTP API sends (payload 2.0, simple responses): header names lowercased. */
function httpEvent(headers: Record<string, string>): APIGatewayRequestAuthorizerEventV2 {
  return {
    version: '2.0',
    type: 'REQUEST',
    routeArn: `arn:aws:execute-api:eu-west-1:123456789012:api/$default/${me.method}${me.path}`,
    identitySource: Object.values(headers),
    routeKey: `${me.method} ${me.path}`,
    rawPath: me.path,
    rawQueryString: '',
    cookies: [],
    headers,
    requestContext: { http: { method: me.method, path: me.path, sourceIp: '192.0.2.1' } },
  } as unknown as APIGatewayRequestAuthorizerEventV2;
}

const CONNECT_ARN = 'arn:aws:execute-api:eu-west-1:123456789012:wsapi/ws/$connect';
/** What the WebSocket API sends for $connect: the REST-style REQUEST event, header names as sent. */
function socketEvent(headers: Record<string, string>): APIGatewayRequestAuthorizerEvent {
  return {
    type: 'REQUEST',
    methodArn: CONNECT_ARN,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: { ticket: 't' },
    requestContext: { routeKey: '$connect', eventType: 'CONNECT', identity: { sourceIp: '192.0.2.1' } },
  } as unknown as APIGatewayRequestAuthorizerEvent;
}

const effect = (result: { policyDocument: { Statement: unknown[] } }) => result.policyDocument.Statement;

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('the origin authorizer', () => {
  it('admits an HTTP request with the current origin secret, and refuses a wrong or empty one', async () => {
    vi.stubEnv('ORIGIN_SECRET', 'the-origin-secret');
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await handler(httpEvent({ [ORIGIN_SECRET_HEADER]: 'the-origin-secret' }))).toEqual({ isAuthorized: true });
    expect(warned).not.toHaveBeenCalled();

    for (const guess of ['a-guess', 'the-origin-secreT', 'the-origin-secret ', '']) {
      expect(await handler(httpEvent({ [ORIGIN_SECRET_HEADER]: guess })), guess).toEqual({ isAuthorized: false });
    }
    expect(await handler(httpEvent({}))).toEqual({ isAuthorized: false });
    // The operator finds the refusals, never the value that was sent.
    expect(warned).toHaveBeenCalledTimes(5);
    const line = String(warned.mock.calls[0]?.[0]);
    expect(JSON.parse(line)).toMatchObject({ level: 'warn', route: `${me.method} ${me.path}`, sourceIp: '192.0.2.1' });
    expect(line).not.toContain('a-guess');
  });

  it('admits the previous secret while CloudFront still sends it after a rotation, and not the one before', async () => {
    vi.stubEnv('ORIGIN_SECRET', 'the-new-secret');
    vi.stubEnv('ORIGIN_SECRET_PREVIOUS', 'the-origin-secret');
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await handler(httpEvent({ [ORIGIN_SECRET_HEADER]: 'the-origin-secret' }))).toEqual({ isAuthorized: true });
    expect(await handler(httpEvent({ [ORIGIN_SECRET_HEADER]: 'the-new-secret' }))).toEqual({ isAuthorized: true });
    expect(await handler(httpEvent({ [ORIGIN_SECRET_HEADER]: 'the-oldest-secret' }))).toEqual({ isAuthorized: false });
  });

  it('refuses everything where no secret is configured', async () => {
    vi.stubEnv('ORIGIN_SECRET', '');
    vi.stubEnv('ORIGIN_SECRET_SECRET_ARN', '');
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await handler(httpEvent({ [ORIGIN_SECRET_HEADER]: '' }))).toEqual({ isAuthorized: false });
    expect(await handler(httpEvent({ [ORIGIN_SECRET_HEADER]: 'anything' }))).toEqual({ isAuthorized: false });
  });

  it('answers $connect with an IAM policy for the connection, whatever the header name’s case', async () => {
    vi.stubEnv('ORIGIN_SECRET', 'the-new-secret');
    vi.stubEnv('ORIGIN_SECRET_PREVIOUS', 'the-origin-secret');
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const allow = [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: CONNECT_ARN }];
    const deny = [{ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: CONNECT_ARN }];
    expect(effect(await handler(socketEvent({ [ORIGIN_SECRET_HEADER]: 'the-new-secret' })))).toEqual(allow);
    expect(effect(await handler(socketEvent({ 'X-Switchboard-Origin': 'the-origin-secret' })))).toEqual(allow);
    expect(effect(await handler(socketEvent({ [ORIGIN_SECRET_HEADER]: 'a-guess' })))).toEqual(deny);
    expect(effect(await handler(socketEvent({ Host: 'wsapi.execute-api.eu-west-1.amazonaws.com' })))).toEqual(deny);
  });

  it('reads the secret and its previous version through the Parameters and Secrets extension in AWS', async () => {
    const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:OriginSecret-abc';
    const extension = await startSecretsExtension();
    extension.secrets.set(ARN, { current: { value: 'the-new-secret', createdAt: new Date() }, previous: 'the-origin-secret' });
    try {
      vi.stubEnv('ORIGIN_SECRET', '');
      vi.stubEnv('ORIGIN_SECRET_SECRET_ARN', ARN);
      for (const [name, value] of Object.entries(extension.env)) vi.stubEnv(name, value);
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      expect(await handler(httpEvent({ [ORIGIN_SECRET_HEADER]: 'the-new-secret' }))).toEqual({ isAuthorized: true });
      expect(await handler(httpEvent({ [ORIGIN_SECRET_HEADER]: 'the-origin-secret' }))).toEqual({ isAuthorized: true });
      expect(await handler(httpEvent({ [ORIGIN_SECRET_HEADER]: 'a-guess' }))).toEqual({ isAuthorized: false });
    } finally {
      await extension.close();
    }
  });

  it('is a small bundle of its own: no zod, no AWS SDK, no table client', async () => {
    const { metafile } = await build({
      ...esbuildOptions,
      mainFields: [...esbuildOptions.mainFields],
      entryPoints: [handlerEntry(originAuthorizer.handler)],
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    expect(Object.keys(metafile.inputs).sort()).toEqual([
      'functions/handlers/system/origin-authorizer.ts',
      'functions/lib/app-error.ts',
      'functions/lib/config.ts',
      'functions/lib/log.ts',
      'functions/lib/origin.ts',
    ]);
  });
});
