import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { EmulatorStore } from '../store';

/**
 * The content of a picture a phone sends (inbound MMS): made from the media SID on each request,
 * never stored, so the state file stays small. PNG, JPEG and GIF are real, decodable 16×16 images of
 * one colour (taken from the SID, so two pictures of one text differ); other types get a few bytes
 * that look like their kind.
 */
export function mediaContent(sid: string, contentType: string): Buffer {
  const colour = colourOf(sid);
  switch (contentType.toLowerCase()) {
    case 'image/png':
      return png(colour);
    case 'image/jpeg':
    case 'image/jpg':
      return jpeg(colour);
    case 'image/gif':
      return gif(colour);
    case 'application/pdf':
      return Buffer.from(`%PDF-1.4\n% Emulated attachment ${sid}\n%%EOF\n`, 'latin1');
    default:
      return contentType.startsWith('text/')
        ? Buffer.from(`Emulated attachment ${sid}\n`, 'utf8')
        : Buffer.concat([Buffer.from('EMULATED-MEDIA\n'), createHash('sha256').update(sid).digest()]);
  }
}

/**
 * `GET /_emulator/media/{MessageSid}/{MediaSid}`: a message's media content without credentials, for
 * the phone simulator's page (the phone shows what it received) and for tests: an outbound MMS's bytes
 * as its MediaUrl answered them, an inbound one's made from its SID.
 */
export function messageMediaContent(
  store: EmulatorStore,
  path: string,
): { status: number; body: unknown; headers?: Record<string, string> } {
  const [, messageSid, mediaSid] = /^\/_emulator\/media\/([^/]+)\/([^/]+)$/.exec(path) ?? [];
  const media = messageSid ? store.findMessage(messageSid)?.message.media.find((m) => m.sid === mediaSid) : undefined;
  if (!media) return { status: 404, body: { error: 'No such media.' } };
  return {
    status: 200,
    body: store.mediaBytes.get(media.sid) ?? mediaContent(media.sid, media.contentType),
    headers: { 'Content-Type': media.contentType, 'Cache-Control': 'private, max-age=3600', 'X-Content-Type-Options': 'nosniff' },
  };
}

/** The picture's side in pixels: two JPEG blocks, big enough to see, small enough to inline. */
const SIDE = 16;

type Rgb = [number, number, number];

function colourOf(sid: string): Rgb {
  const digest = createHash('sha256').update(sid).digest();
  return [digest[0] ?? 0, digest[1] ?? 0, digest[2] ?? 0];
}

// PNG: signature, IHDR (8-bit RGB), one IDAT of unfiltered rows, IEND. https://www.w3.org/TR/png/

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

function png([r, g, b]: Rgb): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIDE, 0);
  header.writeUInt32BE(SIDE, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = [0, ...Array.from({ length: SIDE }, () => [r, g, b]).flat()];
  const pixels = Buffer.from(Array.from({ length: SIDE }, () => row).flat());
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

// GIF89a: a two-colour table and LZW data that clears before every pixel, so codes stay 3 bits wide.

function gif([r, g, b]: Rgb): Buffer {
  const codes: number[] = [];
  for (let i = 0; i < SIDE * SIDE; i++) codes.push(4, 0);
  codes.push(5);
  const packed: number[] = [];
  let bits = 0;
  let count = 0;
  for (const code of codes) {
    bits |= code << count;
    count += 3;
    while (count >= 8) {
      packed.push(bits & 0xff);
      bits >>= 8;
      count -= 8;
    }
  }
  if (count > 0) packed.push(bits & 0xff);
  const blocks: number[] = [];
  for (let i = 0; i < packed.length; i += 255) {
    const block = packed.slice(i, i + 255);
    blocks.push(block.length, ...block);
  }
  const word = (n: number) => [n & 0xff, n >> 8];
  return Buffer.from([
    ...Buffer.from('GIF89a', 'latin1'),
    ...word(SIDE),
    ...word(SIDE),
    0x80, // a global colour table of two entries
    0,
    0,
    r,
    g,
    b,
    255,
    255,
    255,
    0x2c,
    ...word(0),
    ...word(0),
    ...word(SIDE),
    ...word(SIDE),
    0,
    2, // LZW minimum code size
    ...blocks,
    0,
    0x3b,
  ]);
}

// Baseline JPEG (JFIF): quantisation by 1, so a one-colour block is its DC coefficient alone; a DC
// table of twelve 4-bit codes (categories 0–11) and an AC table holding only end-of-block.
// https://www.w3.org/Graphics/JPEG/itu-t81.pdf

function jpeg([r, g, b]: Rgb): Buffer {
  const components = [
    0.299 * r + 0.587 * g + 0.114 * b,
    128 - 0.168736 * r - 0.331264 * g + 0.5 * b,
    128 + 0.5 * r - 0.418688 * g - 0.081312 * b,
  ].map((value) => 8 * (Math.round(Math.min(255, Math.max(0, value))) - 128));
  const segment = (marker: number, data: number[]) => [0xff, marker, (data.length + 2) >> 8, (data.length + 2) & 0xff, ...data];
  const dcCounts = [0, 0, 0, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  const acCounts = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

  const out: number[] = [];
  let bits = 0;
  let count = 0;
  const write = (value: number, length: number) => {
    for (let i = length - 1; i >= 0; i--) {
      bits = (bits << 1) | ((value >> i) & 1);
      count++;
      if (count === 8) {
        out.push(bits);
        if (bits === 0xff) out.push(0);
        bits = 0;
        count = 0;
      }
    }
  };
  const blocks = (SIDE / 8) * (SIDE / 8);
  for (let block = 0; block < blocks; block++) {
    for (const dc of components) {
      // Each block repeats the colour, so after the first the difference from the previous is 0.
      const diff = block === 0 ? dc : 0;
      const magnitude = Math.abs(diff);
      const category = magnitude === 0 ? 0 : Math.floor(Math.log2(magnitude)) + 1;
      write(category, 4);
      if (category > 0) write(diff > 0 ? diff : diff + (1 << category) - 1, category);
      write(0, 1); // end of block: no AC coefficients
    }
  }
  if (count > 0) write((1 << (8 - count)) - 1, 8 - count);

  return Buffer.from([
    0xff,
    0xd8,
    ...segment(0xe0, [...Buffer.from('JFIF\0', 'latin1'), 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...segment(0xdb, [0, ...Array.from({ length: 64 }, () => 1)]),
    ...segment(0xc0, [8, SIDE >> 8, SIDE & 0xff, SIDE >> 8, SIDE & 0xff, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]),
    ...segment(0xc4, [0x00, ...dcCounts, ...Array.from({ length: 12 }, (_, i) => i)]),
    ...segment(0xc4, [0x10, ...acCounts, 0x00]),
    ...segment(0xda, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0]),
    ...out,
    0xff,
    0xd9,
  ]);
}
