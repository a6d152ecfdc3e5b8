import { encodeMuLaw } from './g711';

/** A note's length: four notes make a second, a whole number of 20 ms packets each. */
const NOTE_SAMPLES = 2000;
/** C5, E5, G5, E5: a melody no microphone in the tests sends and unlike the 440 Hz tone of a lone call. */
const NOTES_HZ = [523.25, 659.25, 783.99, 659.25];

/**
 * The emulator's hold music, one second of it in μ-law at 8 kHz, looped: what a held (or waiting)
 * conference participant hears instead of the others, as Twilio plays its default hold music.
 */
export const HOLD_MUSIC: Buffer = (() => {
  const samples = Buffer.alloc(NOTE_SAMPLES * NOTES_HZ.length);
  NOTES_HZ.forEach((hz, note) => {
    for (let i = 0; i < NOTE_SAMPLES; i++) {
      samples[note * NOTE_SAMPLES + i] = encodeMuLaw(6000 * Math.sin((2 * Math.PI * hz * i) / 8000));
    }
  });
  return samples;
})();

/** Whether a 20 ms PCMU payload is a packet of the hold music (as the media engine cuts it). */
export function isHoldMusic(payload: Uint8Array | undefined): boolean {
  if (payload?.length !== 160) return false;
  for (let at = 0; at < HOLD_MUSIC.length; at += 160) {
    if (HOLD_MUSIC.subarray(at, at + 160).equals(payload)) return true;
  }
  return false;
}
