/**
 * Whether a JPEG holds nothing but its pixels: every segment is one the decoder needs (frame,
 * tables, scans) or a bare JFIF/Adobe header, so re-encoding it would strip nothing. A camera
 * frame drawn to a canvas and exported (how the screens capture) is such a file; a phone's photo
 * (EXIF with GPS, orientation), an edited file (XMP, IPTC, comments, ICC) or anything with bytes
 * after its end is not.
 *
 * An allow-list walk of the marker structure (ITU T.81 §B): an unknown or unexpected marker, a
 * length that runs past the end, or data after EOI answers false, and the caller re-encodes.
 * Nothing decodes here; whether the pixels decode is the reader's question.
 */
export function isMetadataFreeJpeg(bytes: Uint8Array): boolean {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return false;
  let at = 2;
  let sawFrame = false;
  let sawScan = false;
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) return false;
    // Fill bytes (0xFF runs) may precede a marker.
    while (at < bytes.length && bytes[at] === 0xff) at++;
    const marker = bytes[at];
    at++;
    if (marker === undefined) return false;
    if (marker === EOI) return sawFrame && sawScan && at === bytes.length;
    if (at + 2 > bytes.length) return false;
    const length = (bytes[at]! << 8) | bytes[at + 1]!;
    if (length < 2 || at + length > bytes.length) return false;
    const segment = bytes.subarray(at + 2, at + length);
    if (marker === SOS) {
      sawScan = true;
      at = skipEntropyCoded(bytes, at + length);
      continue;
    }
    if (FRAME_MARKERS.has(marker)) sawFrame = true;
    else if (marker === APP0 && !isPlainJfif(segment)) return false;
    else if (marker === APP14 && !startsWith(segment, ADOBE)) return false;
    else if (!TABLE_MARKERS.has(marker) && marker !== APP0 && marker !== APP14) return false;
    at += length;
  }
  return false;
}

const SOS = 0xda;
const EOI = 0xd9;
const APP0 = 0xe0;
const APP14 = 0xee;
/** Baseline, extended sequential and progressive Huffman frames: what cameras and browsers write. */
const FRAME_MARKERS = new Set([0xc0, 0xc1, 0xc2]);
/** Huffman tables, quantisation tables, restart interval. */
const TABLE_MARKERS = new Set([0xc4, 0xdb, 0xdd]);
const JFIF = [0x4a, 0x46, 0x49, 0x46, 0x00];
const ADOBE = [0x41, 0x64, 0x6f, 0x62, 0x65];

const startsWith = (segment: Uint8Array, prefix: number[]) =>
  prefix.every((byte, i) => segment[i] === byte);

/** JFIF 1.x without an embedded thumbnail (its 14 bytes and nothing else). */
const isPlainJfif = (segment: Uint8Array) => startsWith(segment, JFIF) && segment.length === 14;

/** The index of the marker after a scan's entropy-coded data (stuffed 0xFF00 and RSTn are data). */
function skipEntropyCoded(bytes: Uint8Array, from: number): number {
  let at = from;
  while (at + 1 < bytes.length) {
    if (bytes[at] === 0xff) {
      const next = bytes[at + 1]!;
      const isData = next === 0x00 || next === 0xff || (next >= 0xd0 && next <= 0xd7);
      if (!isData) return at;
      // A fill byte 0xFF before a marker: keep scanning from it.
      at += next === 0xff ? 1 : 2;
      continue;
    }
    at++;
  }
  return bytes.length;
}
