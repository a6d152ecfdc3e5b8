/** Business constants of docs/product.md §9, defined once for the handlers and the web app. */

export const MIN_PASSWORD_LENGTH = 8;
export const CONVERSATION_PAGE_SIZE = 20;
export const CONVERSATION_LIST_REFRESH_MS = 60_000;
export const THREAD_REFRESH_MS = 60_000;
export const THREAD_FAST_REFRESH_MS = 2_000;
export const THREAD_FAST_REFRESH_WINDOW_MS = 30_000;
export const CONTACTS_LIST_LIMIT = 100;
export const CALLS_LIST_LIMIT = 100;
/** Call History is read again when a call ends (realtime); polled like the conversation list only without the socket. */
export const CALL_HISTORY_REFRESH_MS = 60_000;
export const CONVERSATION_STATUS_FILTERS = ['OPEN', 'CLOSED', 'BOTH'] as const;
export const SOCKET_HEARTBEAT_MS = 30_000;
export const READY_BANNER_HIDE_MS = 3_000;
export const VERIFY_REDIRECT_MS = 2_000;
export const DEFAULT_COUNTRY_CODE = 'US';
export const QUERY_RETRY_COUNT = 1;
export const PRESENCE_REFRESH_MS = 30_000;
export const TOKEN_EXPIRY_WARNING_MS = 10_000;
export const RINGTONE_WAIT_MAX_MS = 2_000;
/**
 * The first design said 1 s × 1.5 up to 10 s; a later design chose doubling up to 30 s, with full jitter, so that every
 * tab of a company does not reconnect in step after an outage or a deploy.
 */
export const SOCKET_RECONNECT = { initialMs: 1_000, factor: 2, maxMs: 30_000 } as const;
export const NATIONAL_NUMBER_LENGTH = { min: 2, max: 17 } as const;
export const FEEDBACK_SCORES = [1, 2, 3, 4, 5] as const;
export const FEEDBACK_ISSUES = ['audio-latency', 'choppy-audio', 'dropped-call', 'echo', 'noisy-call', 'one-way-audio'] as const;
export const DEFAULT_COMPANY_NAME = 'Customer Service';
/** Minutes between two runs of the sweep that finishes member removals whose passes stopped (docs/product.md: Removed members). */
export const MEMBER_REMOVAL_SWEEP_MINUTES = 5;

/** Server-side limits (the first design left them open; these are the product's choices, docs/product.md §9). */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
export const VERIFICATION_TOKEN_TTL_SECONDS = 24 * 60 * 60;
/** A spent refresh token still answers with its successor this long (two tabs refreshing at once). */
export const REFRESH_GRACE_SECONDS = 10;
export const LOGIN_FAILURE_LIMIT = 10;
export const LOGIN_FAILURE_WINDOW_SECONDS = 15 * 60;
/** Past LOGIN_FAILURE_LIMIT failures, an account's next attempt waits 1 s, 2 s, 4 s… up to a minute. */
export const LOGIN_DELAY_BASE_MS = 1_000;
export const LOGIN_DELAY_MAX_MS = 60_000;
export const REGISTRATION_LIMIT_PER_EMAIL = 3;
export const REGISTRATION_LIMIT_PER_SOURCE = 10;
export const REGISTRATION_WINDOW_SECONDS = 15 * 60;
export const RESEND_VERIFICATION_LIMIT = 3;
export const RESEND_VERIFICATION_WINDOW_SECONDS = 15 * 60;
/**
 * Refreshes and sign-outs from one address whose refresh token turned out unknown, spent or revoked
 * (docs/security.md: Sessions): past the limit that address waits for the next minute. One that works is
 * taken back, so the people behind one office address never use the budget up by using the app.
 */
export const SESSION_TOKEN_FAILURE_LIMIT = 30;
export const SESSION_TOKEN_FAILURE_WINDOW_SECONDS = 60;
export const MAX_REQUEST_BODY_BYTES = 64 * 1024;
/** API Gateway ends a WebSocket after 2 hours at most; its registry entry lives as long. */
export const SOCKET_CONNECTION_TTL_SECONDS = 2 * 60 * 60;
export const INVITATION_TTL_SECONDS = 7 * 24 * 60 * 60;
/** Invitation mails (new and resent) a company may send per hour: enough for onboarding, not for spam. */
export const INVITATION_MAIL_LIMIT = 30;
export const INVITATION_MAIL_WINDOW_SECONDS = 60 * 60;
export const REALTIME_TICKET_TTL_SECONDS = 30;
/**
 * Heartbeats keep the socket open (API Gateway answers them itself); one every SOCKET_CHECK_IN_MS instead
 * reaches a function and records the socket as present (a beat does not write the table).
 */
export const SOCKET_CHECK_IN_MS = 5 * 60_000;
/**
 * A heartbeat asks for an answer (heartbeat_ack) only when the server has sent nothing for this long;
 * otherwise it goes one-way (socketQuietHeartbeat). A visible tab (a beat every 30 s) is then answered
 * every other beat, a hidden one (its timers about once a minute) every beat: the socket never stays
 * silent from the server's side much past a minute, well inside CloudFront's 120 s origin timeout
 * (infra/constructs/web-hosting.ts), and each answered beat still proves the socket alive.
 */
export const SOCKET_ANSWER_AFTER_MS = 45_000;
/**
 * A socket that has not checked in for this long (two missed check-ins, and a minute for a hidden tab's
 * throttled timers) is dropped and its user may go offline. Closing a tab needs no lapse: $disconnect.
 */
export const PRESENCE_LAPSE_SECONDS = (2 * SOCKET_CHECK_IN_MS + 60_000) / 1000;
/**
 * A tab's report that its phone is registered (`device_state`, sent on every change and with each
 * check-in) keeps its user reachable for calls this long: the presence lapse, so a phone whose tab
 * missed two check-ins stops counting as the tab itself does. Closing the tab ends it at once
 * (docs/product.md §10.5).
 */
export const PHONE_READY_LAPSE_SECONDS = PRESENCE_LAPSE_SECONDS;
/**
 * A tab being reloaded closes its socket a second or two before the new page has reported its phone
 * again: for this long after a ready phone's socket closed, a call still rings its member rather than
 * going to voicemail at once, so the reloaded tab can take it. Only for that decision: Team says
 * "Phone offline" at once (docs/product.md §10.5 Phone ready).
 */
export const PHONE_RELOAD_GRACE_SECONDS = 10;
export const MAX_ROOMS_PER_CONNECTION = 50;
/**
 * Client frames per socket: a token bucket of SOCKET_FRAME_BURST refilled at
 * SOCKET_FRAMES_PER_SECOND. A frame over it is answered `RATE_LIMITED`; a socket refused more than
 * SOCKET_FLOOD_ALLOWANCE frames (that allowance refilling at one a second) keeps flooding and is closed.
 */
export const SOCKET_FRAMES_PER_SECOND = 10;
export const SOCKET_FRAME_BURST = 20;
export const SOCKET_FLOOD_ALLOWANCE = 20;
/** Open sockets per user (tabs, windows, devices together); the next ticket and upgrade are refused. */
export const MAX_SOCKETS_PER_USER = 10;
/** Tickets per user: a tab asks for one per (re)connect, backing off from 1 s to 30 s. */
export const REALTIME_TICKET_LIMIT = 60;
export const REALTIME_TICKET_WINDOW_SECONDS = 5 * 60;
/** The shell says 'Reconnecting…' only after the socket has been down this long: a blip shows nothing. */
export const RECONNECTING_NOTICE_DELAY_MS = 5_000;

export interface Country {
  code: string;
  dialCode: string;
  name: string;
}

/** The dialer's 50 countries, in the order docs/product.md §3 begins them. */
const COUNTRY_ROWS: readonly (readonly [code: string, dialCode: string, name: string])[] = [
  ['US', '+1', 'United States'],
  ['CA', '+1', 'Canada'],
  ['GB', '+44', 'United Kingdom'],
  ['AU', '+61', 'Australia'],
  ['NZ', '+64', 'New Zealand'],
  ['IN', '+91', 'India'],
  ['MX', '+52', 'Mexico'],
  ['BR', '+55', 'Brazil'],
  ['IE', '+353', 'Ireland'],
  ['DE', '+49', 'Germany'],
  ['FR', '+33', 'France'],
  ['ES', '+34', 'Spain'],
  ['IT', '+39', 'Italy'],
  ['NL', '+31', 'Netherlands'],
  ['BE', '+32', 'Belgium'],
  ['CH', '+41', 'Switzerland'],
  ['AT', '+43', 'Austria'],
  ['SE', '+46', 'Sweden'],
  ['NO', '+47', 'Norway'],
  ['DK', '+45', 'Denmark'],
  ['FI', '+358', 'Finland'],
  ['PL', '+48', 'Poland'],
  ['PT', '+351', 'Portugal'],
  ['GR', '+30', 'Greece'],
  ['CZ', '+420', 'Czechia'],
  ['HU', '+36', 'Hungary'],
  ['RO', '+40', 'Romania'],
  ['IL', '+972', 'Israel'],
  ['AE', '+971', 'United Arab Emirates'],
  ['SA', '+966', 'Saudi Arabia'],
  ['TR', '+90', 'Turkey'],
  ['ZA', '+27', 'South Africa'],
  ['NG', '+234', 'Nigeria'],
  ['KE', '+254', 'Kenya'],
  ['EG', '+20', 'Egypt'],
  ['JP', '+81', 'Japan'],
  ['KR', '+82', 'South Korea'],
  ['CN', '+86', 'China'],
  ['HK', '+852', 'Hong Kong'],
  ['SG', '+65', 'Singapore'],
  ['MY', '+60', 'Malaysia'],
  ['PH', '+63', 'Philippines'],
  ['ID', '+62', 'Indonesia'],
  ['TH', '+66', 'Thailand'],
  ['VN', '+84', 'Vietnam'],
  ['PK', '+92', 'Pakistan'],
  ['AR', '+54', 'Argentina'],
  ['CL', '+56', 'Chile'],
  ['CO', '+57', 'Colombia'],
  ['PE', '+51', 'Peru'],
];

/**
 * No flags: a flag emoji is drawn only where the system has an emoji font (Chromium on Linux without
 * one shows empty boxes), and the dialer's native select cannot show a picture. The name and the dial
 * code say which country it is (docs/product.md §3).
 */
export const COUNTRIES: readonly Country[] = COUNTRY_ROWS.map(([code, dialCode, name]) => ({ code, dialCode, name }));

/**
 * Voice. A voice token lives as long as an access token: a token
 * copied out of a tab that signed out stops working within 15 minutes. The softphone renews it 10 s
 * before it ends (TOKEN_EXPIRY_WARNING_MS), calls included.
 */
export const VOICE_TOKEN_TTL_SECONDS = 15 * 60;
/** Voice tokens a user may get per window: initialisation and renewal of every tab, with room for reloads. */
export const VOICE_TOKEN_LIMIT = 30;
export const VOICE_TOKEN_WINDOW_SECONDS = 5 * 60;
/** Twilio allows 10 `<Client>` nouns in one `<Dial>`: a larger inbox rings its 10 most recently active members. */
export const MAX_RING_ALL_CLIENTS = 10;
/** How long a ring-all rings before the caller hears that nobody is available. */
export const RING_TIMEOUT_SECONDS = 25;

/** Toll fraud (docs/security.md: Toll fraud): how many outbound calls, and how long a call counts as live. */
export const DEFAULT_OUTBOUND_CALLS_PER_MINUTE = 30;
export const MAX_OUTBOUND_CALLS_PER_MINUTE = 600;
/**
 * An outbound call still RINGING this long after it started is taken as ended (its status callback was
 * lost): Twilio's `<Dial>` gives up after 30 s by default. One IN_PROGRESS counts for at most Twilio's
 * longest call, 4 hours (`<Dial timeLimit>` default).
 */
export const OUTBOUND_RING_STALE_SECONDS = 2 * 60;
export const OUTBOUND_CALL_STALE_SECONDS = 4 * 60 * 60;

/**
 * Sending limits (docs/product.md: Sending limits), in SMS segments as sms-segments.ts counts them,
 * each picture of a text one more. What a member may make the company pay for: a minute and an hour of
 * their own, and the company's hour, which the owner sets in Settings → Calling. Sliding windows,
 * so no burst fits across a window's edge. A whole text at its largest (1,600 characters outside
 * GSM-7 are 24 segments, with 5 pictures 29) always fits an empty window.
 */
export const TEXT_SEGMENTS_PER_MEMBER_MINUTE = 60;
export const TEXT_SEGMENTS_PER_MEMBER_HOUR = 600;
export const DEFAULT_TEXT_SEGMENTS_PER_HOUR = 2_000;
export const MIN_TEXT_SEGMENTS_PER_HOUR = 50;
export const MAX_TEXT_SEGMENTS_PER_HOUR = 100_000;
/**
 * What each member may fetch through the API a minute (docs/product.md: Sending limits): pictures
 * and files of texts, voicemail recordings, and asking Twilio about a channel's health. Each proxied
 * answer is up to 4 MB from the customer's Twilio account.
 */
export const MEDIA_REQUESTS_PER_MEMBER_MINUTE = 120;
export const RECORDING_REQUESTS_PER_MEMBER_MINUTE = 60;
export const HEALTH_REFRESHES_PER_MEMBER_MINUTE = 10;
/** Repairs of the company's channels a minute (owners and admins), a window apart from refreshes. */
export const CHANNEL_REPAIRS_PER_COMPANY_MINUTE = 20;

/** A Twilio account SID (docs/product.md §3 Connect Twilio): the contract's rule, checked by the web form first too. */
export const TWILIO_ACCOUNT_SID = /^AC[0-9a-fA-F]{32}$/;
export const TWILIO_ACCOUNT_SID_FORMAT = 'Account SID starts with AC followed by 32 letters and digits';

/** A channel's delivery summary covers its outbound texts of this many days, today included. */
export const DELIVERY_SUMMARY_DAYS = 7;

/** How many of a Messaging Service's other numbers a check keeps and the Repair question names (docs/product.md §10.7). */
export const MESSAGING_SERVICE_NUMBERS_SHOWN = 20;

/**
 * The team inbox. Unread counts come from a last-read marker per user and conversation
 * compared with the conversation's inbound counter, so nothing is written per message per agent; the
 * nav's count and the `unread=true` filter look at this many of the most recently active open
 * conversations (a bounded read), and the nav shows more than 99 as "99+".
 */
export const UNREAD_WINDOW = 200;
export const UNREAD_BADGE_MAX = 99;
/** An internal note is never sent, so it is not held to a text's length; this keeps one item well under DynamoDB's 400 KB. */
export const MAX_NOTE_LENGTH = 4_000;
/** The list's assignee filters besides a member's id. */
export const ASSIGNEE_FILTERS = ['me', 'unassigned'] as const;

/**
 * Pictures in texts and voicemail. Twilio takes up to 10 media items a message. A function's
 * answer is at most 6 MB (Lambda's response limit) and bytes travel base64-encoded (4 bytes for 3), so
 * media larger than this cannot be answered through the API and get a clear error instead.
 */
export const MAX_MESSAGE_MEDIA = 10;
export const MAX_MEDIA_ANSWER_BYTES = 4 * 1024 * 1024;
/**
 * Pictures out (docs/product.md: Pictures out): JPEG, PNG and GIF, at most 5 MB each (Twilio's limit
 * for an MMS's media), at most 5 a text.
 */
export const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/gif'] as const;
export type PictureType = (typeof PICTURE_TYPES)[number];
export const MAX_PICTURE_BYTES = 5 * 1024 * 1024;
export const MAX_PICTURES_PER_TEXT = 5;
/** A text's pictures together: Twilio fails a larger MMS (error 11751, https://www.twilio.com/docs/api/errors/11751). */
export const MAX_TEXT_PICTURE_BYTES = 5 * 1024 * 1024;
/** How long an upload URL, and the URL Twilio fetches a sent picture by, stay good. */
export const PICTURE_URL_SECONDS = 300;
/** A voicemail records at most this long (<Record maxLength>). */
export const VOICEMAIL_MAX_SECONDS = 120;
export const MAX_VOICEMAIL_GREETING_LENGTH = 500;
/** What a caller hears before a recorded call is connected (docs/product.md: Call recording). */
export const MAX_RECORDING_DISCLOSURE_LENGTH = 300;
export const DEFAULT_RECORDING_DISCLOSURE = 'This call may be recorded for quality and training purposes.';
export const DEFAULT_VOICEMAIL_GREETING = 'Sorry, nobody can take your call right now. Please leave a message after the tone.';

/** Account self-service (docs/product.md: Account self-service): a password-reset link works once, for an hour. */
export const PASSWORD_RESET_TOKEN_TTL_SECONDS = 60 * 60;
/** Reset mails one address may ask for in a window; one client (network address) may ask for four times as many. */
export const PASSWORD_RESET_LIMIT = 3;
export const PASSWORD_RESET_WINDOW_SECONDS = 15 * 60;
/** A removed member's sign-in is told so for this long after the removal; then it is an unknown address again. */
export const REMOVED_MEMBER_NOTICE_SECONDS = 365 * 24 * 60 * 60;
