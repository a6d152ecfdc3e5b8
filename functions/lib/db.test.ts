import { DynamoDBClient, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { previewInvitation as previewEndpoint } from '../../shared/contract/endpoints/team';
import { handler as previewInvitation } from '../handlers/invitations/preview';
import { UnprocessedKeysError } from './batch-get';
import { db, TABLE_CLIENT_RETRY } from './db';

/**
 * DynamoDB throttling, which DynamoDB Local never does, injected where it happens: at the HTTP
 * answer for the SDK's retry strategy, and at the table client for what the handler then answers.
 */
describe('the table client under throttling', () => {
  it('retries a throttled request with its configured strategy, up to 4 attempts, then gives up', async () => {
    let attempts = 0;
    const throttled = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        ...TABLE_CLIENT_RETRY,
        region: 'us-east-1',
        endpoint: 'http://127.0.0.1:9',
        credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
        requestHandler: {
          handle: async () => {
            attempts++;
            return {
              response: {
                statusCode: 400,
                headers: { 'content-type': 'application/x-amz-json-1.0' },
                body: Buffer.from(
                  JSON.stringify({
                    __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
                    message: 'The level of configured provisioned throughput for the table was exceeded.',
                  }),
                ),
              },
            };
          },
        },
      }),
    );
    const read = throttled.send(new GetCommand({ TableName: 'table', Key: { PK: 'a', SK: 'b' } }));
    await expect(read).rejects.toBeInstanceOf(ProvisionedThroughputExceededException);
    expect(attempts).toBe(4);
  });
});

describe('a route when the table stays throttled', () => {
  const table = mockClient(db);
  afterAll(() => table.restore());

  it('answers 503 with a clear message, never a 500', async () => {
    vi.stubEnv('TABLE_NAME', 'table');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const error of [
      new ProvisionedThroughputExceededException({ message: 'Throughput exceeded', $metadata: {} }),
      Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), { name: 'ThrottlingException' }),
      // A BatchGet whose keys stayed unprocessed after its retries (lib/batch-get): the same cause.
      new UnprocessedKeysError(3),
    ]) {
      table.reset();
      table.onAnyCommand().rejects(error);
      const res = await previewInvitation(
        {
          version: '2.0',
          rawPath: previewEndpoint.path,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token: 'some-token' }),
          requestContext: { http: { method: previewEndpoint.method, path: previewEndpoint.path, sourceIp: '192.0.2.1' } },
        } as unknown as APIGatewayProxyEventV2,
        { awsRequestId: 'req-1', getRemainingTimeInMillis: () => 10_000 } as Context,
      );
      expect({ status: res.statusCode, body: JSON.parse(res.body ?? '') }).toEqual({
        status: 503,
        body: {
          success: false,
          error: { code: 'SERVICE_UNAVAILABLE', message: 'The service is busy right now. Please try again in a moment.' },
        },
      });
    }
    vi.unstubAllEnvs();
  });
});
