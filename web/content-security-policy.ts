import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';

/**
 * The SPA's Content-Security-Policy, one definition for CloudFront (infra/) and the Vite dev server.
 * Scripts: only the app's own files and its inline scripts by hash (the theme script of index.html;
 * in development also Vite's React preamble); no eval. Connections: the app's origin (its API and
 * its socket are on it) and Twilio's Voice SDK endpoints (twilio-voice.js README, "Content Security
 * Policy"): signalling for the roaming edge and the fixed ashburn edge (docs/product.md §9) and the older chunderw
 * gateway, the insights gateway (eventgw), and the sounds it fetches from sdk.twilio.com and
 * media.twiliocdn.com. Call audio travels over WebRTC, which CSP does not govern.
 */
export const TWILIO_VOICE = {
  connect: [
    'wss://voice-js.roaming.twilio.com',
    'wss://voice-js.ashburn.twilio.com',
    'wss://chunderw-vpc-gll.twilio.com',
    'https://eventgw.twilio.com',
    'https://eventgw.us1.twilio.com',
    'https://sdk.twilio.com',
    'https://media.twiliocdn.com',
  ],
  media: ['https://sdk.twilio.com', 'https://media.twiliocdn.com'],
} as const;

export interface PolicyOptions {
  /** 'sha256-…' sources of the inline scripts the page carries. */
  scriptHashes: readonly string[];
  /**
   * Origins beyond the app's own that the page may connect to: the pictures bucket (uploads, and reads
   * of sent pictures); in development also the dev server's socket.
   */
  connect?: readonly string[];
  /** Origins beyond Twilio's that the page may load sounds from (development: the Twilio emulator). */
  media?: readonly string[];
  /** Only in a response header: a <meta> policy cannot carry frame-ancestors. */
  header: boolean;
}

export function contentSecurityPolicy(options: PolicyOptions): string {
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    ['script-src', "'self'", ...options.scriptHashes.map((h) => `'${h}'`)],
    // Radix and React set inline styles; styles cannot run code.
    ['style-src', "'self'", "'unsafe-inline'"],
    ['img-src', "'self'", 'data:', 'blob:'],
    ['font-src', "'self'"],
    ['connect-src', "'self'", ...(options.connect ?? []), ...TWILIO_VOICE.connect],
    ['media-src', "'self'", 'mediastream:', 'blob:', ...(options.media ?? []), ...TWILIO_VOICE.media],
    ['worker-src', "'self'", 'blob:'],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
  ];
  if (options.header) directives.push(['frame-ancestors', "'none'"]);
  return directives.map((d) => d.join(' ')).join('; ');
}

/** 'sha256-…' of every inline (no src) script of an HTML page. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (m) =>
      `sha256-${createHash('sha256')
        .update(m[1] ?? '')
        .digest('base64')}`,
  );
}

/** The hashes of web/index.html's inline scripts, which the build keeps as they are. */
export function indexHtmlScriptHashes(): string[] {
  return inlineScriptHashes(readFileSync(join(import.meta.dirname, 'index.html'), 'utf8'));
}

/**
 * Development: the dev server's pages carry the policy as a <meta> element first in <head>, hashed
 * over the page as served (Vite adds the React preamble inline). `socket` is the dev server's own
 * HMR socket origin; `signallingHost` the Twilio emulator's TLS port, where the Voice SDK signals and
 * fetches its sounds instead of Twilio; `pictures` the pictures bucket's origin, where the browser
 * uploads and reads a text's pictures (docs/product.md: Pictures out).
 */
export function contentSecurityPolicyDevPlugin(socket: string, signallingHost?: string, pictures?: string): Plugin {
  const emulator = signallingHost ? [`wss://${signallingHost}`, `https://${signallingHost}`] : [];
  return {
    name: 'switchboard-content-security-policy',
    apply: 'serve',
    transformIndexHtml: {
      order: 'post',
      handler: (html) => {
        const policy = contentSecurityPolicy({
          scriptHashes: inlineScriptHashes(html),
          connect: [socket, ...emulator, ...(pictures ? [pictures] : [])],
          media: emulator.slice(1),
          header: false,
        });
        return html.replace(/<head>/i, `<head>\n    <meta http-equiv="Content-Security-Policy" content="${policy}" />`);
      },
    },
  };
}
