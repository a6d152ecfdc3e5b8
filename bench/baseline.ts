/**
 * Import-time baseline of `npm run bench`: the least any handler that touches DynamoDB pays at cold
 * start (the document client on the runtime-provided AWS SDK), bundled with the handlers' settings.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
