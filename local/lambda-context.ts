import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';

/** The context Lambda hands a function's invocation, whose remaining time runs out at `deadline` (epoch ms). */
export function lambdaContext(functionName: string, deadline: number): Context {
  return {
    awsRequestId: randomUUID(),
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}
