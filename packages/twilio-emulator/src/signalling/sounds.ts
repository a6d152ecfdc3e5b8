const SAMPLE_RATE = 8000;

/** One tone: the frequencies played together, for so many seconds (none: silence). */
type Part = { hz: number[]; seconds: number };

/** DTMF's row and column frequencies. https://en.wikipedia.org/wiki/Dual-tone_multi-frequency_signaling */
const DTMF: Record<string, [number, number]> = {
  '1': [697, 1209],
  '2': [697, 1336],
  '3': [697, 1477],
  '4': [770, 1209],
  '5': [770, 1336],
  '6': [770, 1477],
  '7': [852, 1209],
  '8': [852, 1336],
  '9': [852, 1477],
  s: [941, 1209],
  '0': [941, 1336],
  h: [941, 1477],
};

/**
 * The Voice SDK's sounds (its `sounds` option: incoming, outgoing, disconnect, dtmf0…9, dtmfs, dtmfh),
 * which it otherwise fetches from Twilio's CDN: short generated tones, North American ring and
 * ringback frequencies, so the emulator needs no sound files and no internet.
 */
const SOUNDS: Record<string, Part[]> = {
  // The SDK loops it while a call rings: one ring, then the pause of a ring cadence.
  incoming: [
    { hz: [440, 480], seconds: 1 },
    { hz: [], seconds: 2 },
  ],
  outgoing: [{ hz: [440, 480], seconds: 0.4 }],
  disconnect: [
    { hz: [480, 620], seconds: 0.25 },
    { hz: [], seconds: 0.1 },
    { hz: [480, 620], seconds: 0.25 },
  ],
  ...Object.fromEntries(Object.entries(DTMF).map(([key, hz]) => [`dtmf${key}`, [{ hz, seconds: 0.15 }]])),
};

export const SOUND_NAMES = Object.keys(SOUNDS);

/** The sound as a 16-bit mono PCM WAV file; undefined for a name the SDK does not use. */
export function soundFile(name: string): Buffer | undefined {
  const parts = SOUNDS[name];
  if (!parts) return undefined;
  const samples = parts.flatMap((part) =>
    Array.from({ length: Math.round(part.seconds * SAMPLE_RATE) }, (_, i) =>
      part.hz.length === 0
        ? 0
        : (part.hz.reduce((sum, hz) => sum + Math.sin((2 * Math.PI * hz * i) / SAMPLE_RATE), 0) / part.hz.length) * 0.3,
    ),
  );
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((s, i) => {
    data.writeInt16LE(Math.round(s * 32767), i * 2);
  });
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16); // size of the format chunk
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(SAMPLE_RATE, 24);
  header.writeUInt32LE(SAMPLE_RATE * 2, 28); // bytes per second
  header.writeUInt16LE(2, 32); // bytes per sample frame
  header.writeUInt16LE(16, 34); // bits per sample
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
