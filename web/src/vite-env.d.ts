/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Local only: the Twilio emulator's Voice SDK signalling host ('localhost:3143'); unset in production. */
  readonly VITE_TWILIO_SIGNALLING_HOST?: string;
}
