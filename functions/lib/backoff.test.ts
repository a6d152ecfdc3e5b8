import { afterEach, describe, expect, it, vi } from 'vitest';
import { BACKOFF, backoffMs, roomForAnother, untilAnswered, withBackoff } from './backoff';
import { withDeadline } from './deadline';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('backoffMs', () => {
  it('doubles its ceiling from 50 ms up to 1 s, with full jitter below it', () => {
    const almostOne = () => 0.999_999;
    expect([1, 2, 3, 4, 5, 6, 7, 12].map((attempt) => backoffMs(attempt, almostOne))).toEqual([
      49, 99, 199, 399, 799, 999, 999, 999,
    ]);
    expect(backoffMs(5, () => 0)).toBe(0);
    expect(backoffMs(3, () => 0.5)).toBe(100);
  });

  it('uses Math.random by default, never reaching the ceiling', () => {
    for (let i = 0; i < 200; i++) {
      const pause = backoffMs(2);
      expect(pause).toBeGreaterThanOrEqual(0);
      expect(pause).toBeLessThan(100);
    }
  });
});

describe('roomForAnother', () => {
  it('outside a function with a deadline, allows up to the attempt cap', () => {
    expect(roomForAnother(BACKOFF.maxAttempts - 1, 999)).toBe(true);
    expect(roomForAnother(BACKOFF.maxAttempts, 0)).toBe(false);
  });

  it('inside one, allows another while the reserve is left after the pause, however many attempts were made', async () => {
    await withDeadline(5_000, async () => {
      expect(roomForAnother(50, 1_000)).toBe(true);
      expect(roomForAnother(1, 3_500)).toBe(false);
    });
    await withDeadline(BACKOFF.reserveMs - 1, async () => expect(roomForAnother(1, 0)).toBe(false));
  });
});

const conflict = () => Object.assign(new Error('Transaction is ongoing for the item'), { name: 'TransactionConflictException' });
const isConflict = (e: unknown) => (e as Error).name === 'TransactionConflictException';

describe('withBackoff', () => {
  it('runs again after a retryable failure, pausing by the back-off, until it succeeds', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.999_999);
    const started = Date.now();
    let attempts = 0;
    const result = await withBackoff(async (attempt) => {
      attempts = attempt;
      if (attempt < 4) throw conflict();
      return 'written';
    }, isConflict);
    expect({ result, attempts }).toEqual({ result: 'written', attempts: 4 });
    // Pauses of 49, 99 and 199 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(340);
  });

  it('throws any other failure at once', async () => {
    let attempts = 0;
    const failure = new Error('ConditionalCheckFailed');
    await expect(
      withBackoff(async () => {
        attempts++;
        throw failure;
      }, isConflict),
    ).rejects.toBe(failure);
    expect(attempts).toBe(1);
  });

  it('outside a deadline, gives up after the attempt cap with the last error', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const errors: Error[] = [];
    const outcome = withBackoff(async () => {
      errors.push(conflict());
      throw errors.at(-1);
    }, isConflict);
    await expect(outcome).rejects.toSatisfy((e) => e === errors.at(-1));
    expect(errors).toHaveLength(BACKOFF.maxAttempts);
  });

  it('inside a function, keeps trying while its deadline leaves room, and stops in time for it to answer', async () => {
    const started = Date.now();
    let attempts = 0;
    const outcome = withDeadline(3_000, () =>
      withBackoff(async () => {
        attempts++;
        throw conflict();
      }, isConflict),
    );
    await expect(outcome).rejects.toThrow('Transaction is ongoing for the item');
    // More than the cap would allow outside a function is fine; what matters is the time left for the answer.
    expect(attempts).toBeGreaterThan(1);
    expect(Date.now() - started).toBeLessThanOrEqual(3_000 - BACKOFF.reserveMs + 100);

    attempts = 0;
    await expect(
      withDeadline(BACKOFF.reserveMs - 1, () =>
        withBackoff(async () => {
          attempts++;
          throw conflict();
        }, isConflict),
      ),
    ).rejects.toThrow();
    expect(attempts).toBe(1);
  });
});

describe('untilAnswered', () => {
  it('runs again while the attempt answers nothing, and answers undefined when there is no room left', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    expect(await untilAnswered(async (attempt) => (attempt === 3 ? 'committed' : undefined))).toBe('committed');
    let attempts = 0;
    expect(
      await untilAnswered(async () => {
        attempts++;
        return undefined;
      }),
    ).toBeUndefined();
    expect(attempts).toBe(BACKOFF.maxAttempts);
  });
});
