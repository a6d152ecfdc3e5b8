import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (apt-get install chromium; .ci/run installs it): Playwright never downloads a browser here. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // As a page someone has clicked: the widget's sound prompt (docs/product.md §10.5) has component tests.
  '--autoplay-policy=no-user-gesture-required',
];

export interface LaunchOptions {
  /** A fake microphone (it beeps) for the Voice SDK's calls; whether a page may use it is each context's permission. */
  fakeMicrophone?: boolean;
  /** A permission nobody granted is refused rather than left asking. */
  denyPermissionPrompts?: boolean;
}

/** A headless Chromium with a fresh, temporary profile. Used by the browser tests and bench/web.ts. */
export function launchChromium({ fakeMicrophone = false, denyPermissionPrompts = false }: LaunchOptions = {}): Promise<Browser> {
  const args = [...CHROMIUM_ARGS];
  if (fakeMicrophone) args.push('--use-fake-device-for-media-stream');
  if (denyPermissionPrompts) args.push('--deny-permission-prompts');
  return chromium.launch({ executablePath: CHROMIUM, args });
}
