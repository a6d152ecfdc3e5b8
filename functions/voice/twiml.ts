import VoiceResponse from 'twilio/lib/twiml/VoiceResponse';
import { RING_TIMEOUT_SECONDS, VOICEMAIL_MAX_SECONDS } from '../../shared/constants';

/** The TwiML the voice webhooks answer, built with Twilio's own writer (escaping included). */

export const NOBODY_AVAILABLE = 'Sorry, nobody is available to take your call. Please try again later.';
export const CALL_REFUSED = 'This call cannot be placed.';

/** A short apology, then the end of the call. */
export function sayAndHangUp(message: string): string {
  const response = new VoiceResponse();
  response.say(message);
  response.hangup();
  return response.toString();
}

/** Nothing more to do: the call ends as the document ends. */
export const hangUp = () => {
  const response = new VoiceResponse();
  response.hangup();
  return response.toString();
};

/** The widget's custom parameters on each rung browser (docs/product.md §3 Inbound call parameters). */
export interface RingParameters {
  /** The call as the socket's events name it (the caller's leg, not the browser's). */
  parentCallSid: string;
  callerNumber: string;
  calledNumber: string;
  contactName?: string;
  /** 'true' when the call is recorded from its answer: the widget shows it (docs/product.md: Call recording). */
  recorded?: string;
}

/**
 * Rings browsers at once; the first to answer is bridged (answerOnBridge: the caller hears ringing,
 * not silence, until then). Each leg reports its progress to `statusCallback`; the Dial's end goes to
 * `action`, which says sorry when nobody answered.
 */
export function ringClients(
  identities: readonly string[],
  urls: { action: string; statusCallback: string },
  parameters: RingParameters,
  /** Said before anyone rings: a recorded call's disclosure (call-recording.ts). */
  disclosure?: string,
): string {
  const response = new VoiceResponse();
  if (disclosure) response.say(disclosure);
  const dial = response.dial({ timeout: RING_TIMEOUT_SECONDS, answerOnBridge: true, action: urls.action, method: 'POST' });
  for (const identity of identities) {
    const client = dial.client({
      statusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
      statusCallback: urls.statusCallback,
      statusCallbackMethod: 'POST',
    });
    client.identity(identity);
    for (const [name, value] of Object.entries(parameters)) {
      if (value) client.parameter({ name, value });
    }
  }
  return response.toString();
}

/**
 * An agent's outbound call: the dialled number rings with the chosen caller ID. The Dial's `action`
 * hears its end, and moves the agent into the call's conference once the number answered
 * (functions/voice/conference.ts).
 */
export function dialNumber(to: string, callerId: string, statusCallback: string, action?: string): string {
  const response = new VoiceResponse();
  const dial = response.dial({ callerId, answerOnBridge: true, ...(action ? { action, method: 'POST' } : {}) });
  dial.number(
    {
      statusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
      statusCallback,
      statusCallbackMethod: 'POST',
    },
    to,
  );
  return response.toString();
}

/**
 * Voicemail: the company's greeting, a beep, then up to VOICEMAIL_MAX_SECONDS of the
 * caller. `action` hears the end of the recording; `recordingStatusCallback` gets the recording once
 * Twilio has it. A silent caller makes no recording and Twilio goes on to the next verb: the end.
 * https://www.twilio.com/docs/voice/twiml/record
 */
export function recordVoicemail(greeting: string, urls: { action: string; recordingStatusCallback: string }): string {
  const response = new VoiceResponse();
  response.say(greeting);
  response.record({
    maxLength: VOICEMAIL_MAX_SECONDS,
    playBeep: true,
    action: urls.action,
    method: 'POST',
    recordingStatusCallback: urls.recordingStatusCallback,
    recordingStatusCallbackMethod: 'POST',
    recordingStatusCallbackEvent: ['completed'],
  });
  response.hangup();
  return response.toString();
}
