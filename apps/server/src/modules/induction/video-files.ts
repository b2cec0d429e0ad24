import type { VideoContentType } from '@boomgate/contracts/induction';

/**
 * Uploaded safety videos: the type comes from the file's first bytes (never its name or the
 * declared type), the duration from the container itself, so the server knows how long the driver
 * must watch without trusting the browser.
 */
export function sniffVideoType(bytes: Uint8Array): VideoContentType | undefined {
  // ISO BMFF (mp4): a box of type `ftyp` first.
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === 'ftyp') return 'video/mp4';
  // Matroska/WebM: the EBML header element.
  if (bytes.length >= 4 && readUInt(bytes, 0, 4) === 0x1a45dfa3) {
    return hasWebmDocType(bytes) ? 'video/webm' : undefined;
  }
  return undefined;
}

/** The video's length in seconds, or undefined when the container does not say. */
export function readVideoDuration(bytes: Uint8Array, type: VideoContentType): number | undefined {
  const seconds = type === 'video/mp4' ? mp4Duration(bytes) : webmDuration(bytes);
  return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

// ---- mp4: moov → mvhd (timescale, duration) ---------------------------------------------------

type Box = { type: string; start: number; bodyStart: number; end: number };

function* boxes(bytes: Uint8Array, from: number, to: number): Generator<Box> {
  let offset = from;
  while (offset + 8 <= to) {
    let size = readUInt(bytes, offset, 4);
    const type = ascii(bytes, offset + 4, offset + 8);
    let header = 8;
    if (size === 1) {
      if (offset + 16 > to) return;
      size = readUInt(bytes, offset + 8, 8);
      header = 16;
    } else if (size === 0) {
      size = to - offset; // the box runs to the end of its parent
    }
    if (size < header || offset + size > to) return;
    yield { type, start: offset, bodyStart: offset + header, end: offset + size };
    offset += size;
  }
}

function mp4Duration(bytes: Uint8Array): number | undefined {
  for (const box of boxes(bytes, 0, bytes.length)) {
    if (box.type !== 'moov') continue;
    for (const child of boxes(bytes, box.bodyStart, box.end)) {
      if (child.type !== 'mvhd') continue;
      const at = child.bodyStart;
      const version = bytes[at];
      // version 0: 32-bit creation/modification/duration; version 1: 64-bit.
      if (version === 1 && at + 32 <= child.end) {
        const timescale = readUInt(bytes, at + 20, 4);
        const duration = readUInt(bytes, at + 24, 8);
        return timescale > 0 ? duration / timescale : undefined;
      }
      if (version === 0 && at + 20 <= child.end) {
        const timescale = readUInt(bytes, at + 12, 4);
        const duration = readUInt(bytes, at + 16, 4);
        // 0xffffffff means "unknown" (fragmented files)
        return timescale > 0 && duration !== 0xffffffff ? duration / timescale : undefined;
      }
      return undefined;
    }
  }
  return undefined;
}

// ---- webm: EBML ---------------------------------------------------------------------------------

const EBML_HEADER = 0x1a45dfa3;
const DOC_TYPE = 0x4282;
const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const TIMECODE_SCALE = 0x2ad7b1;
const DURATION = 0x4489;
const CLUSTER = 0x1f43b675;
const CLUSTER_TIMECODE = 0xe7;
const BLOCK_GROUP = 0xa0;
const BLOCK = 0xa1;
const SIMPLE_BLOCK = 0xa3;
/** Masters we walk into instead of skipping: their size may be "unknown" in recorder output. */
const CONTAINERS = new Set([SEGMENT, INFO, CLUSTER, BLOCK_GROUP]);

type Element = { id: number; bodyStart: number; size: number | undefined };

function readElement(bytes: Uint8Array, offset: number): Element | undefined {
  const id = readVint(bytes, offset, true);
  if (id?.value === undefined) return undefined;
  const size = readVint(bytes, offset + id.length, false);
  if (!size) return undefined;
  return { id: id.value, bodyStart: offset + id.length + size.length, size: size.value };
}

/** An EBML variable-length integer; `unknown` sizes (all ones) come back as undefined value. */
function readVint(
  bytes: Uint8Array,
  offset: number,
  keepMarker: boolean,
): { value: number | undefined; length: number } | undefined {
  const first = bytes[offset];
  if (first === undefined || first === 0) return undefined;
  const length = Math.clz32(first) - 23; // 1..8
  if (offset + length > bytes.length) return undefined;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const byte = bytes[offset + i] ?? 0;
    value = value * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  return { value: !keepMarker && allOnes ? undefined : value, length };
}

function hasWebmDocType(bytes: Uint8Array): boolean {
  const header = readElement(bytes, 0);
  if (header?.id !== EBML_HEADER || header.size === undefined) return false;
  const end = Math.min(header.bodyStart + header.size, bytes.length);
  for (let offset = header.bodyStart; offset < end;) {
    const element = readElement(bytes, offset);
    if (!element || element.size === undefined) return false;
    if (element.id === DOC_TYPE) {
      return ascii(bytes, element.bodyStart, element.bodyStart + element.size) === 'webm';
    }
    offset = element.bodyStart + element.size;
  }
  return false;
}

/**
 * The Info element's Duration when the muxer wrote one; otherwise (a browser's MediaRecorder
 * writes none) the timestamp of the last block, found by walking the clusters.
 */
function webmDuration(bytes: Uint8Array): number | undefined {
  let timecodeScale = 1_000_000; // nanoseconds per tick, the Matroska default
  let declaredTicks: number | undefined;
  let clusterTimecode = 0;
  let lastBlockTicks: number | undefined;

  for (let offset = 0; offset < bytes.length;) {
    const element = readElement(bytes, offset);
    if (!element) break;
    const { id, bodyStart, size } = element;
    if (CONTAINERS.has(id)) {
      offset = bodyStart; // walk into it: its children follow
      continue;
    }
    if (size === undefined || bodyStart + size > bytes.length) break;
    if (id === TIMECODE_SCALE) timecodeScale = readUInt(bytes, bodyStart, size);
    else if (id === DURATION) declaredTicks = readFloat(bytes, bodyStart, size);
    else if (id === CLUSTER_TIMECODE) clusterTimecode = readUInt(bytes, bodyStart, size);
    else if (id === SIMPLE_BLOCK || id === BLOCK) {
      const track = readVint(bytes, bodyStart, false);
      if (track) {
        const at = bodyStart + track.length;
        const relative = ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
        const signed = relative >= 0x8000 ? relative - 0x10000 : relative;
        const ticks = clusterTimecode + signed;
        lastBlockTicks = Math.max(lastBlockTicks ?? 0, ticks);
      }
    }
    offset = bodyStart + size;
  }
  const ticks = declaredTicks ?? lastBlockTicks;
  return ticks === undefined ? undefined : (ticks * timecodeScale) / 1e9;
}

// ---- bytes ----------------------------------------------------------------------------------------

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, Math.min(to, bytes.length)));
}

/** Big-endian unsigned integer of up to 8 bytes (exact up to 2^53). */
function readUInt(bytes: Uint8Array, offset: number, length: number): number {
  let value = 0;
  for (let i = 0; i < length; i++) value = value * 256 + (bytes[offset + i] ?? 0);
  return value;
}

function readFloat(bytes: Uint8Array, offset: number, length: number): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, length);
  if (length === 4) return view.getFloat32(0);
  if (length === 8) return view.getFloat64(0);
  return undefined;
}
