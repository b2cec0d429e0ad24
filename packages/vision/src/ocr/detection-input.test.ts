import { DEFAULT_DETECTION_OPTIONS, DetectionService, Image } from 'paddleocr';
import { describe, expect, it } from 'vitest';

import { type DetectionInput, type DetectionOptions, detectionInput } from './detection-input';

/** The package's own preprocessing, called on a bare service (it does not touch the model). */
function packaged(image: Image, options: DetectionOptions) {
  const service = Object.create(DetectionService.prototype) as {
    preprocessDetection(image: Image, options: DetectionOptions): Promise<DetectionInput>;
  };
  return service.preprocessDetection(image, options);
}

/** Byte-exact comparison (toEqual on a million floats is slow and says nothing more). */
function comparable(input: DetectionInput | null) {
  if (!input) return input;
  const { tensor, resizeParams } = input;
  return {
    resizeParams,
    length: tensor.length,
    bytes: Buffer.from(tensor.buffer).toString('base64'),
  };
}

/** A deterministic image with edges and gradients in every channel. */
function anImage(width: number, height: number, channels = 3) {
  const data = new Uint8Array(width * height * channels);
  let seed = width * 7919 + height;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    data[i] = (i % 17 < 8 ? (i * 31) % 256 : seed >>> 24) & 0xff;
  }
  return new Image(width, height, channels, data);
}

const options = (overrides: Partial<DetectionOptions> = {}): DetectionOptions => ({
  ...DEFAULT_DETECTION_OPTIONS,
  channelOrder: 'bgr',
  ...overrides,
});

describe('detectionInput', () => {
  it.each<[string, number, number, number, number, number?]>([
    ['a 1080p frame at 960', 1920, 1080, 3, 960],
    ['a small plate crop, enlarged to 960', 410, 150, 3, 960],
    ['an odd size, no downscale needed', 333, 211, 3, 960],
    ['a portrait photo at full resolution', 720, 1280, 3, 1920],
    ['RGBA pixels', 300, 200, 4, 960],
    ['a side limit below the long side', 1500, 700, 3, 2000, 1000],
  ])(
    'gives the package’s tensor and sizes bit for bit: %s',
    async (_, w, h, channels, side, limit) => {
      const image = anImage(w, h, channels);
      const opts = options({ maxSideLength: side, ...(limit ? { maxSideLimit: limit } : {}) });
      const ours = detectionInput(image, opts);
      expect(ours).not.toBeNull();
      expect(comparable(ours)).toEqual(comparable(await packaged(image, opts)));
    },
  );

  it('follows the channel order', async () => {
    const image = anImage(64, 48);
    const rgb = options({ channelOrder: 'rgb' });
    expect(comparable(detectionInput(image, rgb))).toEqual(comparable(await packaged(image, rgb)));
    expect(detectionInput(image, rgb)!.tensor).not.toEqual(
      detectionInput(image, options())!.tensor,
    );
  });

  it('leaves fixed input shapes, other limit types and tiny images to the package', () => {
    expect(detectionInput(anImage(40, 40), options({ inputShape: [3, 64, 64] }))).toBeNull();
    expect(detectionInput(anImage(40, 40), options({ limitType: 'min' }))).toBeNull();
    expect(detectionInput(anImage(20, 30), options())).toBeNull();
    // 2000x1 scales to 960x0: the package refuses it with its own error.
    expect(detectionInput(anImage(2000, 1), options())).toBeNull();
  });
});
