import { EventEmitter } from 'node:events';
import type { AccountRecord, CallRecord, ConferenceRecord, MessageRecord, RecordingRecord, WebhookMethod } from './model';

/** What happened, for the parts that react to it (the carrier, the phone simulator's live view). */
interface EmulatorEventMap {
  /** A message was created or changed (its status, a callback or webhook attempt). */
  message: [account: AccountRecord, message: MessageRecord];
  /** A call or call leg was created or changed (its status, a TwiML request, a callback, digits). */
  call: [account: AccountRecord, call: CallRecord];
  /** The Call resource was asked to end the call or to carry out other TwiML; the voice part acts on it. */
  callUpdate: [account: AccountRecord, call: CallRecord, update: CallUpdate];
  /** A Call Recordings API recording started, or finished (`completed`/`absent`): its status callback is due. */
  recording: [account: AccountRecord, recording: RecordingRecord];
  /** A conference's participants changed (joined, left, held, muted) or it ended: the media mixes it again. */
  conference: [account: AccountRecord, conference: ConferenceRecord];
}

/** `POST …/Calls/{Sid}.json`: Status ends the call; Twiml or Url replaces what it is doing. */
export interface CallUpdate {
  status?: 'completed' | 'canceled';
  twiml?: string;
  url?: string;
  method?: WebhookMethod;
}

/**
 * The small event bus the emulator's parts share, so none calls into another: the Messages resource
 * announces a new message and the carrier advances it; the phone simulator follows both.
 */
export class EmulatorEvents extends EventEmitter<EmulatorEventMap> {
  constructor() {
    super();
    // Every open phone simulator page listens; more than ten is normal, not a leak.
    this.setMaxListeners(0);
  }
}
