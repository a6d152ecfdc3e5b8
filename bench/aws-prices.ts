/**
 * List prices that `npm run cost` (bench/cost.ts) applies: AWS in us-east-1 (on-demand, the first
 * tier, no free tier: an operator's free tier is the account's, not a company's) and Twilio in the
 * United States (pay as you go, before volume discounts). One file, so that a price change is one
 * edit; `checked` says when the figures were last compared with their sources, and each source is
 * the page to compare them with again.
 */
export const PRICES_CHECKED = '2026-11-25';

export const AWS_PRICES = {
  region: 'us-east-1',
  cloudFront: {
    source: 'https://aws.amazon.com/cloudfront/pricing/',
    /** HTTPS requests, United States/Canada/Europe: $0.0100 per 10,000. */
    requestsPerMillion: 1.0,
    /** Regional data transfer out to the internet, United States, first 10 TB a month. */
    dataOutPerGb: 0.085,
    /** Regional data transfer out to origin (the viewers' request bodies and socket frames), United States. */
    dataToOriginPerGb: 0.02,
  },
  apiGateway: {
    source: 'https://aws.amazon.com/api-gateway/pricing/',
    /** HTTP API requests, first 300 million a month; metered in 512 KB increments. */
    httpRequestsPerMillion: 1.0,
    httpRequestIncrementBytes: 512 * 1024,
    /** WebSocket messages sent and received, first billion a month; metered in 32 KB increments. */
    socketMessagesPerMillion: 1.0,
    socketMessageIncrementBytes: 32 * 1024,
    socketConnectionMinutesPerMillion: 0.25,
  },
  lambda: {
    source: 'https://aws.amazon.com/lambda/pricing/',
    requestsPerMillion: 0.2,
    /** Arm (the stack's functions are arm64), first 7.5 billion GB-seconds a month; INIT is billed too. */
    armGbSecond: 0.0000133334,
  },
  dynamoDb: {
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    /** On-demand, Standard table class. */
    writeRequestUnitsPerMillion: 0.625,
    readRequestUnitsPerMillion: 0.125,
  },
  secretsManager: {
    source: 'https://aws.amazon.com/secrets-manager/pricing/',
    /** $0.05 per 10,000 API calls (the secrets' own $0.40 a month each are the deployment's, not a company's). */
    apiCallsPerMillion: 5.0,
  },
  kms: {
    source: 'https://aws.amazon.com/kms/pricing/',
    /** Symmetric requests, $0.03 per 10,000 (the key's $1 a month is the deployment's). */
    requestsPerMillion: 3.0,
  },
  cloudWatchLogs: {
    source: 'https://aws.amazon.com/cloudwatch/pricing/',
    /** Standard log class, data ingested; each event is billed 26 bytes above its own. */
    ingestedPerGb: 0.5,
    eventOverheadBytes: 26,
    /** Archived (compressed, about 0.15 of the raw size), per GB-month: a month of function logs is kept 30 days. */
    storedPerGbMonth: 0.03,
  },
  ses: {
    source: 'https://aws.amazon.com/ses/pricing/',
    /** Outbound mail, $0.10 per 1,000. */
    mailsPerThousand: 0.1,
  },
} as const;

/**
 * Twilio, United States, list prices. Carrier pass-through fees on texts (about $0.003–0.005 per
 * segment) and A2P 10DLC brand and campaign fees come on top and are left out.
 */
export const TWILIO_PRICES = {
  source: 'https://www.twilio.com/en-us/sms/pricing/us and https://www.twilio.com/en-us/voice/pricing/us',
  /** A local number, a month. */
  localNumberPerMonth: 1.15,
  /** Per segment, sent or received. */
  smsSegmentOutbound: 0.0083,
  smsSegmentInbound: 0.0083,
  /** Per minute: a call to a local number, and a call the app places. */
  voiceInboundPerMinute: 0.0085,
  voiceOutboundPerMinute: 0.014,
  /** Per minute of a Voice SDK (browser) leg: the agent's side of every answered call. */
  clientPerMinute: 0.004,
} as const;

export type AwsPrices = typeof AWS_PRICES;
export type TwilioPrices = typeof TWILIO_PRICES;
