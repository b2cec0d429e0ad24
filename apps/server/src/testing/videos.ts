/**
 * Tiny but structurally valid video containers built in code (no binary fixtures): enough for the
 * server's type sniffing and duration reading, which is all it does with uploads.
 */

const u32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
};
const u64 = (value: number) => {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt(value));
  return bytes;
};
const box = (type: string, ...body: Buffer[]) => {
  const content = Buffer.concat(body);
  return Buffer.concat([u32(content.length + 8), Buffer.from(type, 'ascii'), content]);
};

/** An mp4 with `ftyp`, an `mdat` and a `moov` holding `mvhd` (version 0 or 1) at the end. */
export function anMp4(
  durationSeconds: number,
  { version = 0, timescale = 1000, mdatBytes = 64 } = {},
): Buffer {
  const ticks = Math.round(durationSeconds * timescale);
  const times =
    version === 1
      ? [u64(0), u64(0), u32(timescale), u64(ticks)]
      : [u32(0), u32(0), u32(timescale), u32(ticks)];
  const mvhd = box(
    'mvhd',
    Buffer.from([version, 0, 0, 0]),
    ...times,
    u32(0x00010000), // rate 1.0
    Buffer.alloc(2 + 10 + 36 + 24 + 4, 0), // volume, reserved, matrix, pre-defined, next track id
  );
  return Buffer.concat([
    box('ftyp', Buffer.from('isom'), u32(0x200), Buffer.from('isomiso2mp41')),
    box('mdat', Buffer.alloc(mdatBytes, 7)),
    box('moov', mvhd),
  ]);
}

const ebmlSize = (size: number) => {
  // 8-byte size: 0x01 marker then 7 bytes.
  const bytes = Buffer.alloc(8);
  bytes.writeUInt8(0x01, 0);
  bytes.writeUIntBE(size, 2, 6);
  return bytes;
};
const element = (id: number[], ...body: Buffer[]) => {
  const content = Buffer.concat(body);
  return Buffer.concat([Buffer.from(id), ebmlSize(content.length), content]);
};
const UNKNOWN_SIZE = Buffer.from([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);

/**
 * A webm as a browser's MediaRecorder writes it: unknown-size Segment and Clusters, no Duration;
 * one SimpleBlock every 100 ms up to `durationSeconds`. With `declared`, an Info Duration too.
 */
export function aWebm(durationSeconds: number, { declared = false } = {}): Buffer {
  const header = element(
    [0x1a, 0x45, 0xdf, 0xa3],
    element([0x42, 0x86], Buffer.from([1])),
    element([0x42, 0x82], Buffer.from('webm')),
  );
  const durationFloat = Buffer.alloc(8);
  durationFloat.writeDoubleBE(durationSeconds * 1000);
  const info = element(
    [0x15, 0x49, 0xa9, 0x66],
    element([0x2a, 0xd7, 0xb1], Buffer.from([0x0f, 0x42, 0x40])), // 1 ms ticks
    ...(declared ? [element([0x44, 0x89], durationFloat)] : []),
  );
  const clusters: Buffer[] = [];
  const lastMs = Math.round(durationSeconds * 1000);
  for (let clusterStart = 0; clusterStart <= lastMs; clusterStart += 1000) {
    const blocks: Buffer[] = [];
    for (let relative = 0; relative < 1000 && clusterStart + relative <= lastMs; relative += 100) {
      const timecode = Buffer.alloc(2);
      timecode.writeInt16BE(relative);
      blocks.push(element([0xa3], Buffer.from([0x81]), timecode, Buffer.from([0x80, 1, 2, 3])));
    }
    const timecode = Buffer.alloc(4);
    timecode.writeUInt32BE(clusterStart);
    clusters.push(
      Buffer.concat([
        Buffer.from([0x1f, 0x43, 0xb6, 0x75]),
        UNKNOWN_SIZE,
        element([0xe7], timecode),
        ...blocks,
      ]),
    );
  }
  return Buffer.concat([
    header,
    Buffer.from([0x18, 0x53, 0x80, 0x67]),
    UNKNOWN_SIZE,
    info,
    ...clusters,
  ]);
}
