/**
 * The life of one call while its TwiML runs: where it waits (a `<Pause>`, a `<Dial>` ringing or
 * bridged) and what wakes it (an answer, a hang-up, time passing). The controls change the call's
 * state and wake the run; the run looks at the state again. `settled()` resolves when the run next
 * waits or ends, so a control can answer with the state its action led to.
 */
export class CallRun {
  /** The caller hung up: the run ends the call at its next step. */
  callerGone = false;
  /** Other TwiML the call was told to carry out instead (the Call resource's Twiml or Url). */
  redirect?: { twiml?: string; url?: string; method?: 'GET' | 'POST' };
  /** The URL of the document being carried out, against which relative URLs in it resolve. */
  documentUrl?: string;
  /** The `<Record>` under way, which digits and the `speak` control reach. */
  recording?: RecordingUnderWay;
  private ended = false;
  private pendingWake = false;
  private wakeSleeper?: (reason: 'time' | 'wake') => void;
  private sleeperTimed = false;
  private settleWaiters: (() => void)[] = [];

  constructor(readonly callSid: string) {}

  /**
   * Waits until woken or until `ms` have passed (forever without `ms`); answers which came first. A
   * wake that came while the run was busy is not lost: the next sleep returns at once.
   */
  sleep(ms?: number): Promise<'time' | 'wake'> {
    if (this.pendingWake) {
      this.pendingWake = false;
      return Promise.resolve('wake');
    }
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(() => finish('time'), ms);
      const finish = (reason: 'time' | 'wake') => {
        clearTimeout(timer);
        this.wakeSleeper = undefined;
        resolve(reason);
      };
      this.wakeSleeper = finish;
      this.sleeperTimed = ms !== undefined;
      this.settle();
    });
  }

  /** Something the run waits on changed. */
  wake() {
    if (this.wakeSleeper) this.wakeSleeper('wake');
    else this.pendingWake = true;
  }

  /** Whether the run is in a wait that time ends (a Pause, a Dial ringing). */
  get waitsOnTime() {
    return Boolean(this.wakeSleeper && this.sleeperTimed);
  }

  /** Ends the current timed wait now, as if its time had passed. */
  advance(): boolean {
    if (!this.wakeSleeper || !this.sleeperTimed) return false;
    this.wakeSleeper('time');
    return true;
  }

  /** Resolves when the run next waits or ends. */
  settled(): Promise<void> {
    if (this.ended) return Promise.resolve();
    return new Promise((resolve) => this.settleWaiters.push(resolve));
  }

  end() {
    this.ended = true;
    this.settle();
  }

  get isEnded() {
    return this.ended;
  }

  private settle() {
    const waiters = this.settleWaiters;
    this.settleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

/**
 * What a `<Record>` under way waits on: the caller "speaks" from its start until they hang up, press
 * a finishOnKey, or maxLength passes. Its length goes by the emulator's clock, plus the seconds the
 * `speak` control says the caller spoke (so tests never wait on real time).
 */
export interface RecordingUnderWay {
  startedAt: number;
  spokenSeconds: number;
  maxLength: number;
  finishOnKey: string;
  /** The key that ended it. */
  pressed?: string;
}
