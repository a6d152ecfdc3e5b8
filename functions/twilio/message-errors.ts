/**
 * What Twilio's messaging error codes mean, in words an agent can act on (the message Details show
 * them). Codes not listed keep Twilio's own message, or none.
 * https://www.twilio.com/docs/api/errors
 */
const MESSAGE_ERRORS: Readonly<Record<number, string>> = {
  21211: "The 'To' number is not a valid phone number.",
  21408: 'Sending texts to this region is not enabled in the Twilio account.',
  21606: "The 'From' number cannot send texts from this Twilio account.",
  21610: 'The contact opted out of texts from this number (they replied STOP). They can reply START to opt back in.',
  21612: 'Texts cannot be sent to this number from this number (it cannot receive SMS, or the route is not supported).',
  21614: "The 'To' number is not a mobile number.",
  21617: 'The message is too long (more than 1,600 characters).',
  30003: 'Unreachable destination handset: the phone is off or out of coverage.',
  30004: 'Message blocked: the recipient blocked texts, or the carrier did.',
  30005: 'Unknown destination handset: the number does not exist or is no longer in service.',
  30006: 'Landline or unreachable carrier: this number cannot receive texts.',
  30007: 'Message filtered by the carrier (it looked like spam or broke carrier rules).',
  30008: 'Delivery failed for an unknown reason at the carrier.',
  30034: 'Blocked: the sending number is not registered for A2P 10DLC messaging.',
};

/** Twilio's code as a readable sentence: ours for known codes, else Twilio's message, else a generic one. */
export function messageErrorText(code: number | null, twilioMessage?: string): string | null {
  if (code !== null && MESSAGE_ERRORS[code]) return MESSAGE_ERRORS[code] as string;
  if (twilioMessage) return twilioMessage;
  return code === null ? null : `Twilio reported error ${code}.`;
}

/** The recipient opted out (STOP): Twilio refuses every send to it from that number. */
export const OPTED_OUT_ERROR = 21610;
