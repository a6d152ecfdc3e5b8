/** An answer in Twilio's error shape: `{code, message, more_info, status}`. */
export class TwilioError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  get body() {
    return {
      code: this.code,
      message: this.message,
      more_info: `https://www.twilio.com/docs/errors/${this.code}`,
      status: this.status,
    };
  }
}

export const authenticate = () => new TwilioError(401, 20003, 'Authenticate', { 'WWW-Authenticate': 'Basic realm="Twilio API"' });

export const notFound = (path: string) => new TwilioError(404, 20404, `The requested resource ${path} was not found`);

export const methodNotAllowed = (method: string) => new TwilioError(405, 20004, `Method not allowed: ${method}`);

/** A parameter Twilio would refuse; Twilio's codes for phone-number configuration where one exists. */
export const invalidParameter = (code: number, message: string) => new TwilioError(400, code, message);

export const INVALID_URL = 21402;
export const INVALID_METHOD = 21403;
export const APPLICATION_NOT_ACCESSIBLE = 21420;
export const INVALID_PARAMETER = 20001;
