/** G.711 μ-law (PCMU), the codec the emulator prefers: a byte per 8 kHz sample, so no encoder library is needed. */

const BIAS = 0x84;
const CLIP = 32635;

export function encodeMuLaw(sample: number): number {
  const sign = sample < 0 ? 0x80 : 0;
  let magnitude = Math.min(Math.abs(Math.round(sample)), CLIP) + BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (magnitude & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (magnitude >> (exponent + 3)) & 0x0f;
  magnitude = ~(sign | (exponent << 4) | mantissa);
  return magnitude & 0xff;
}

export function decodeMuLaw(byte: number): number {
  const value = ~byte & 0xff;
  const magnitude = ((((value & 0x0f) << 3) + BIAS) << ((value & 0x70) >> 4)) - BIAS;
  return value & 0x80 ? -magnitude : magnitude;
}

/**
 * Whether a PCMU payload carries sound: its RMS level above about -60 dBFS. A muted browser sends
 * digital silence (0xFF or 0x7F, which decode to 0), so its packets keep coming and fall below this.
 */
export function muLawHasSound(payload: Uint8Array): boolean {
  if (payload.length === 0) return false;
  let sum = 0;
  for (const byte of payload) {
    const sample = decodeMuLaw(byte);
    sum += sample * sample;
  }
  return Math.sqrt(sum / payload.length) > 32;
}

/** One second of a sine tone at 8 kHz in μ-law; a whole number of cycles in a second, so it loops seamlessly. */
export function muLawTone(frequencyHz: number, amplitude = 8000): Buffer {
  const samples = Buffer.alloc(8000);
  for (let i = 0; i < samples.length; i++) {
    samples[i] = encodeMuLaw(amplitude * Math.sin((2 * Math.PI * frequencyHz * i) / 8000));
  }
  return samples;
}
