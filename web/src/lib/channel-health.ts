import type { ChannelHealthStatus } from '@shared/contract/channel-health';
import type { Channel } from '@shared/contract/settings';

/**
 * A channel's health in words, read by the Channels page and the Dashboard's warning: the
 * badge's label, its tone, and what to say when a check found no problem to quote.
 */
export const HEALTH_WORDS: Record<
  ChannelHealthStatus,
  { label: string; tone: 'success' | 'warning' | 'danger' | 'neutral'; sentence: string }
> = {
  HEALTHY: {
    label: 'Healthy',
    tone: 'success',
    sentence: 'Twilio sends this number’s calls and texts to Switchboard.',
  },
  DRIFTED: {
    label: 'Drifted',
    tone: 'warning',
    sentence: 'Twilio sends this number’s calls or texts somewhere else.',
  },
  NUMBER_GONE: {
    label: 'Number gone',
    tone: 'danger',
    sentence: 'This number is no longer in your Twilio account: it was released or moved.',
  },
  CREDENTIALS_REFUSED: {
    label: 'Credentials refused',
    tone: 'danger',
    sentence: 'Twilio refused your account’s credentials: connect it again in Settings → Providers.',
  },
  PROVIDER_UNREACHABLE: {
    label: 'Twilio unreachable',
    tone: 'warning',
    sentence: 'Twilio did not answer when this number was last checked.',
  },
  UNCHECKED: {
    label: 'Not checked yet',
    tone: 'neutral',
    sentence: 'This number has not been checked with Twilio yet.',
  },
};

/** A channel worth a warning: a number in use (ACTIVE) and checked, with an outcome other than HEALTHY. */
export const needsAttention = (channel: Channel) =>
  channel.type === 'PHONE' &&
  channel.status === 'ACTIVE' &&
  channel.health.status !== 'HEALTHY' &&
  channel.health.status !== 'UNCHECKED';
