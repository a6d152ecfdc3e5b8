/**
 * What Twilio's messaging error codes mean, in words an agent can act on, and what to do about each:
 * the one table behind the message Details and a channel's delivery summary. Codes not
 * listed keep Twilio's own message, or none. https://www.twilio.com/docs/api/errors
 */
const MESSAGE_ERRORS: Readonly<Record<number, { message: string; advice: string }>> = {
  21211: {
    message: "The 'To' number is not a valid phone number.",
    advice: 'Check the number for typos and that it has its country code.',
  },
  21408: {
    message: 'Sending texts to this region is not enabled in the Twilio account.',
    advice: "Allow the destination country in Twilio's console (Messaging, Settings, Geo permissions).",
  },
  21606: {
    message: "The 'From' number cannot send texts from this Twilio account.",
    advice: 'Check in Twilio that the number can send SMS and still belongs to this account.',
  },
  21610: {
    message: 'The contact opted out of texts from this number (they replied STOP). They can reply START to opt back in.',
    advice: 'Do not text them again unless they reply START; reach them another way.',
  },
  21612: {
    message: 'Texts cannot be sent to this number from this number (it cannot receive SMS, or the route is not supported).',
    advice: 'Call the contact instead, or ask for a number that can receive texts.',
  },
  21614: {
    message: "The 'To' number is not a mobile number.",
    advice: 'Call the contact instead, or ask for a mobile number.',
  },
  21617: {
    message: 'The message is too long (more than 1,600 characters).',
    advice: 'Shorten the message or send it in parts.',
  },
  30003: {
    message: 'Unreachable destination handset: the phone is off or out of coverage.',
    advice: 'Try again later; if it keeps failing, confirm the number with the contact.',
  },
  30004: {
    message: 'Message blocked: the recipient blocked texts, or the carrier did.',
    advice: 'Ask the contact to unblock the number, or call them instead.',
  },
  30005: {
    message: 'Unknown destination handset: the number does not exist or is no longer in service.',
    advice: "Confirm the number with the contact and correct it in Contacts; don't retry it as it is.",
  },
  30006: {
    message: 'Landline or unreachable carrier: this number cannot receive texts.',
    advice: 'Call this number instead; a landline cannot receive texts.',
  },
  30007: {
    message: 'Message filtered by the carrier (it looked like spam or broke carrier rules).',
    advice: 'Avoid link shorteners and spam-like wording, and register your brand and campaign for A2P 10DLC in Twilio.',
  },
  30008: {
    message: 'Delivery failed for an unknown reason at the carrier.',
    advice: "Try again; if it keeps failing, give Twilio's support the message SID.",
  },
  30034: {
    message: 'Blocked: the sending number is not registered for A2P 10DLC messaging.',
    advice: "Add the number to a registered A2P 10DLC campaign in Twilio's console; US carriers block unregistered texts.",
  },
};

/** Twilio's code as a readable sentence: ours for known codes, else Twilio's message, else a generic one. */
export function messageErrorText(code: number | null, twilioMessage?: string): string | null {
  if (code !== null && MESSAGE_ERRORS[code]) return MESSAGE_ERRORS[code].message;
  if (twilioMessage) return twilioMessage;
  return code === null ? null : `Twilio reported error ${code}.`;
}

/** What a code means and what to do about it, for a summary of many messages. */
export function messageErrorAdvice(code: number): { message: string; advice: string } {
  return (
    MESSAGE_ERRORS[code] ?? {
      message: `Twilio reported error ${code}.`,
      advice: `Look up error ${code} in Twilio's error reference (twilio.com/docs/api/errors/${code}).`,
    }
  );
}

/** The recipient opted out (STOP): Twilio refuses every send to it from that number. */
export const OPTED_OUT_ERROR = 21610;
