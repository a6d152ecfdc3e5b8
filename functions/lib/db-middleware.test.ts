import { describe, expect, it } from 'vitest';
import { isWriteTransaction, retryConflicts } from './db';

type Middleware = (
  next: (args: { input: object }) => Promise<unknown>,
  context: object,
) => (args: { input: object }) => Promise<unknown>;

/**
 * The conflict middleware as the Lambda runtime's AWS SDK would run it: deployed functions do not run
 * the SDK of node_modules (docs/architecture.md: How the functions meet contention), so it may rely
 * only on what every SDK version gives a middleware: the step it is added at, the command's input and
 * the modelled errors. Here it gets an empty handler context, no command name.
 */
function middleware() {
  let added: { fn: Middleware; options: Record<string, unknown> } | undefined;
  retryConflicts({
    middlewareStack: { add: (fn: Middleware, options: Record<string, unknown>) => (added = { fn, options }) },
  } as never);
  if (!added) throw new Error('retryConflicts added no middleware');
  return added;
}

const failure = (name: string, fields: object = {}) => Object.assign(new Error(name), { name, ...fields });
const conflictOnly = () =>
  failure('TransactionCanceledException', { CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }] });

/** Sends through the middleware: each attempt gets the next outcome (an error to throw, or an answer). */
async function send(input: object, outcomes: unknown[]) {
  const sent: { input: Record<string, unknown> }[] = [];
  const { fn } = middleware();
  const answer = await fn(async (args) => {
    sent.push(args as { input: Record<string, unknown> });
    const outcome = outcomes[sent.length - 1];
    if (outcome instanceof Error) throw outcome;
    return outcome;
  }, {})({ input }).catch((error: unknown) => error);
  return { answer, sent };
}

const put = { TableName: 't', Item: { PK: 'a' } };
const write = { TransactItems: [{ Put: put }, { ConditionCheck: { TableName: 't', Key: { PK: 'b' } } }] };
const read = { TransactItems: [{ Get: { TableName: 't', Key: { PK: 'a' } } }] };

describe('the conflict middleware on any SDK version', () => {
  it('is added at the initialize step, the one every command passes first', () => {
    expect(middleware().options).toMatchObject({ step: 'initialize', name: 'retryTransactionConflicts' });
  });

  it('sends a plain write refused by a transaction again, without a command name', async () => {
    const { answer, sent } = await send(put, [failure('TransactionConflictException'), { ok: true }]);
    expect(answer).toEqual({ ok: true });
    expect(sent).toHaveLength(2);
    expect(sent[1]?.input).toEqual(put);
  });

  it('sends a write transaction cancelled by conflicts again with a new token, one in progress with the same', async () => {
    const { answer, sent } = await send(write, [conflictOnly(), failure('TransactionInProgressException'), { ok: true }]);
    expect(answer).toEqual({ ok: true });
    const tokens = sent.map((s) => s.input.ClientRequestToken);
    expect(tokens.every((token) => typeof token === 'string')).toBe(true);
    expect(tokens[1]).not.toBe(tokens[0]);
    expect(tokens[2]).toBe(tokens[1]);
  });

  it('sends a read transaction cancelled by conflicts again, without a token it does not take', async () => {
    const { answer, sent } = await send(read, [conflictOnly(), { ok: true }]);
    expect(answer).toEqual({ ok: true });
    expect(sent.map((s) => s.input.ClientRequestToken)).toEqual([undefined, undefined]);
  });

  it('answers a failed condition at once: it is an answer, not a conflict', async () => {
    const condition = failure('TransactionCanceledException', {
      CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'TransactionConflict' }],
    });
    const { answer, sent } = await send(write, [condition, { ok: true }]);
    expect(answer).toBe(condition);
    expect(sent).toHaveLength(1);
  });

  it('tells a write transaction by its items', () => {
    expect(isWriteTransaction(write)).toBe(true);
    expect(isWriteTransaction(read)).toBe(false);
    expect(isWriteTransaction(put as never)).toBe(false);
    expect(isWriteTransaction({ TransactItems: [] })).toBe(false);
  });
});
