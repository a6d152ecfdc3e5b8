import type { RawData, WebSocket } from 'ws';

/**
 * The signalling heartbeat: a text frame holding only a newline. The Voice SDK's WSTransport
 * (`lib/twilio/wstransport.ts` in @twilio/voice-sdk 2.18) closes and reopens a socket that received
 * nothing for HEARTBEAT_TIMEOUT = 15 s ("No messages received in 15 seconds. Reconnecting..."), and
 * answers every `\n` it receives with a `\n` of its own, which it keeps from the protocol ("Filter and
 * respond to heartbeats"); it sends none unprompted. So the beat comes from Twilio's gateway: an idle
 * registered device stays connected for hours on Twilio. Twilio does not publish its interval.
 */
export const HEARTBEAT = '\n';

/** Three beats inside the SDK's 15 s, so one late or lost (a busy machine) never costs the socket. */
export const DEFAULT_HEARTBEAT_MS = 5_000;

/**
 * Beats on the socket every `intervalMs` until it closes. `heard` takes a frame from the client: a
 * heartbeat is answered, unless it came within half an interval of the emulator's last one (then it is
 * the SDK's answer to it), so two peers that both answer every beat cannot ping-pong. Intervals are
 * measured on the monotonic clock, as the beats are timed: a host may move `Date` ahead (a test
 * stack's clock), which says nothing about how long ago the last beat went.
 */
export function keepAlive(socket: WebSocket, intervalMs: number) {
  let lastBeat = Number.NEGATIVE_INFINITY;
  const beat = () => {
    if (socket.readyState !== socket.OPEN) return;
    socket.send(HEARTBEAT);
    lastBeat = performance.now();
  };
  const timer = setInterval(beat, intervalMs);
  socket.once('close', () => clearInterval(timer));
  return {
    /** True when the frame is a heartbeat, which is no protocol message. */
    heard(data: RawData, isBinary: boolean): boolean {
      if (isBinary || String(data) !== HEARTBEAT) return false;
      if (performance.now() - lastBeat >= intervalMs / 2) beat();
      return true;
    },
  };
}
