import { format } from 'node:util';
import { parentPort, workerData } from 'node:worker_threads';
import type { Context } from 'aws-lambda';
import { setClockOffset } from './clock';
import { freezeFetchAfterInvocation } from './frozen-fetch';
import { lambdaContext } from './lambda-context';

/**
 * What runs inside one local execution environment (a worker thread; local/function-environments.ts):
 * the stand-in for Lambda's Node.js runtime. It imports the function's bundle once (the cold start),
 * then answers one invocation at a time, as Lambda sends an environment one event at a time. The
 * bundle is its own copy of every module, so no state is shared with any other function or environment.
 */
export interface RuntimeData {
  /** The function's bundle (a file URL) and its name, as Lambda's context reports it. */
  bundle: string;
  functionName: string;
}

/** `clockOffsetMs`: how far the gateway's clock runs ahead of the wall clock (local/clock.ts; 0 but in bench/cost.ts). */
export type ToRuntime = { type: 'invoke'; id: number; event: unknown; deadline: number; clockOffsetMs: number };

export type SerializedError = { name: string; message: string; stack?: string };

export type FromRuntime =
  | { type: 'ready'; initMs: number }
  | { type: 'log'; level: 'info' | 'error'; line: string }
  | { type: 'init-error'; error: SerializedError }
  | { type: 'result'; id: number; result: unknown }
  | { type: 'error'; id: number; error: SerializedError };

type Handler = (event: unknown, context: Context) => Promise<unknown>;

const port = parentPort;
if (!port) throw new Error('local/function-runtime.ts runs in a worker thread');
const { bundle, functionName } = workerData as RuntimeData;
process.setSourceMapsEnabled(true);

/**
 * The function's console, line by line through the same port as its answers, so each line reaches the
 * gateway before the answer that followed it (a worker's stdout is a stream of its own, unordered with them).
 */
for (const level of ['log', 'info', 'debug'] as const) {
  console[level] = (...args: unknown[]) =>
    port.postMessage({ type: 'log', level: 'info', line: format(...args) } satisfies FromRuntime);
}
for (const level of ['warn', 'error'] as const) {
  console[level] = (...args: unknown[]) =>
    port.postMessage({ type: 'log', level: 'error', line: format(...args) } satisfies FromRuntime);
}

const serialize = (error: unknown): SerializedError =>
  error instanceof Error
    ? { name: error.name, message: error.message, stack: error.stack }
    : { name: 'Error', message: String(error) };

/**
 * Lambda freezes an environment once its function answers, so work the function left running does not
 * go on: an outside call (fetch) started by an invocation that has answered never settles here, as the
 * in-process mode does (local/function-scope.ts).
 */
let invocation = 0;
let answered = true;
freezeFetchAfterInvocation(() => {
  const mine = invocation;
  return () => mine !== invocation || answered;
});

const started = performance.now();
let handler: Handler;
try {
  const loaded = (await import(bundle)) as { handler?: Handler };
  if (typeof loaded.handler !== 'function') throw new Error(`${functionName} exports no handler`);
  handler = loaded.handler;
  port.postMessage({ type: 'ready', initMs: performance.now() - started } satisfies FromRuntime);
} catch (error) {
  port.postMessage({ type: 'init-error', error: serialize(error) } satisfies FromRuntime);
  throw error;
}

port.on('message', async (message: ToRuntime) => {
  invocation = message.id;
  answered = false;
  setClockOffset(message.clockOffsetMs);
  let reply: FromRuntime;
  try {
    const result = await handler(message.event, lambdaContext(functionName, message.deadline));
    reply = { type: 'result', id: message.id, result };
  } catch (error) {
    reply = { type: 'error', id: message.id, error: serialize(error) };
  }
  answered = true;
  try {
    port.postMessage(reply);
  } catch (error) {
    // An answer that cannot leave the environment (a function in it, say) fails as Lambda's would: not JSON.
    port.postMessage({ type: 'error', id: message.id, error: serialize(error) } satisfies FromRuntime);
  }
});
