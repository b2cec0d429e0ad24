/**
 * PaddleOCR's text-detection input (resize + normalise into a planar float tensor), computed in one
 * tight pass. The `paddleocr` package does it in two generic passes (a bilinear resize with a closure
 * call per value, then a per-value channel-order branch): about a fifth of a plate read on 2 cores
 * (measured with node --cpu-prof). The arithmetic here is the package's own, value for value, so the
 * tensor is bit-identical (detection-input.test.ts compares them) and every accuracy figure stands.
 */

/** What the package's detection preprocessing returns (its `PreprocessDetectionResult`). */
export type DetectionInput = {
  tensor: Float32Array;
  resizeParams: {
    srcWidth: number;
    srcHeight: number;
    resizeSourceWidth: number;
    resizeSourceHeight: number;
    dstWidth: number;
    dstHeight: number;
    scaleWidth: number;
    scaleHeight: number;
  };
};

export type DetectionImage = { width: number; height: number; channels: number; data: Uint8Array };

export type DetectionOptions = {
  maxSideLength: number;
  limitType: string;
  maxSideLimit: number;
  mean: readonly number[];
  stdDeviation: readonly number[];
  channelOrder?: string;
  inputShape?: unknown;
};

/** The package's multiple-of-32 target size for limitType 'max'. */
function targetSize(width: number, height: number, options: DetectionOptions) {
  const longSide = Math.max(width, height);
  const ratio = longSide > options.maxSideLength ? options.maxSideLength / longSide : 1;
  let dstWidth = Math.round(width * ratio);
  let dstHeight = Math.round(height * ratio);
  const resizedLongSide = Math.max(dstWidth, dstHeight);
  if (resizedLongSide > options.maxSideLimit) {
    const sideLimitRatio = options.maxSideLimit / resizedLongSide;
    dstWidth = Math.round(dstWidth * sideLimitRatio);
    dstHeight = Math.round(dstHeight * sideLimitRatio);
  }
  if (dstWidth % 32 !== 0) dstWidth = Math.max(Math.round(dstWidth / 32) * 32, 32);
  if (dstHeight % 32 !== 0) dstHeight = Math.max(Math.round(dstHeight / 32) * 32, 32);
  return { dstWidth, dstHeight };
}

/** Source index and weight of each destination coordinate (the package's half-pixel bilinear). */
function axisTaps(srcSize: number, dstSize: number) {
  const scale = srcSize / dstSize;
  const first = new Int32Array(dstSize);
  const second = new Int32Array(dstSize);
  const weight = new Float64Array(dstSize);
  for (let d = 0; d < dstSize; d++) {
    const source = (d + 0.5) * scale - 0.5;
    let i1 = Math.floor(source);
    let w = source - i1;
    if (i1 < 0) {
      i1 = 0;
      w = 0;
    } else if (i1 >= srcSize - 1) {
      i1 = srcSize - 1;
      w = 0;
    }
    first[d] = i1;
    second[d] = Math.max(0, Math.min(srcSize - 1, i1 + 1));
    weight[d] = w;
  }
  return { first, second, weight };
}

/**
 * The detection input, or null for what the package must do itself: fixed input shapes, limit types
 * other than 'max', and tiny images it pads first.
 */
export function detectionInput(
  image: DetectionImage,
  options: DetectionOptions,
): DetectionInput | null {
  const { width: srcW, height: srcH, channels } = image;
  if (options.inputShape || options.limitType !== 'max' || srcW + srcH < 64 || channels < 3) {
    return null;
  }
  const { dstWidth: dstW, dstHeight: dstH } = targetSize(srcW, srcH, options);
  // A sliver that scales to nothing: the package refuses it ("Invalid resize height: 0").
  if (dstW === 0 || dstH === 0) return null;
  const xs = axisTaps(srcW, dstW);
  const ys = axisTaps(srcH, dstH);
  const src = image.data;
  const plane = dstW * dstH;
  const tensor = new Float32Array(plane * 3);
  // Output channel c reads source channel c (rgb) or 2 - c (bgr), normalised with the c-th mean and std.
  const bgr = options.channelOrder === 'bgr';
  const [k0, k1, k2] = bgr ? [2, 1, 0] : [0, 1, 2];
  const [n0, n1, n2] = options.stdDeviation as [number, number, number];
  const [m0, m1, m2] = [0, 1, 2].map((c) => options.mean[c]! * options.stdDeviation[c]!) as [
    number,
    number,
    number,
  ];
  const x1 = xs.first.map((i) => i * channels);
  const x2 = xs.second.map((i) => i * channels);
  const xw = xs.weight;
  const xw1 = xs.weight.map((w) => 1 - w);
  // Bilinear weights are in [0, 1], so a value stays in [0, 255] up to rounding error, which Math.round
  // absorbs: the package's clamp never changes a value here.
  const lerp = (a: number, b: number, c: number, d: number, x: number, yw: number) => {
    const top = src[a]! * xw1[x]! + src[b]! * xw[x]!;
    const bottom = src[c]! * xw1[x]! + src[d]! * xw[x]!;
    return Math.round(top * (1 - yw) + bottom * yw);
  };
  for (let y = 0; y < dstH; y++) {
    const yWeight = ys.weight[y]!;
    const row1 = ys.first[y]! * srcW * channels;
    const row2 = ys.second[y]! * srcW * channels;
    let at = y * dstW;
    for (let x = 0; x < dstW; x++, at++) {
      const tl = row1 + x1[x]!;
      const tr = row1 + x2[x]!;
      const bl = row2 + x1[x]!;
      const br = row2 + x2[x]!;
      tensor[at] = lerp(tl + k0, tr + k0, bl + k0, br + k0, x, yWeight) * n0 - m0;
      tensor[plane + at] = lerp(tl + k1, tr + k1, bl + k1, br + k1, x, yWeight) * n1 - m1;
      tensor[2 * plane + at] = lerp(tl + k2, tr + k2, bl + k2, br + k2, x, yWeight) * n2 - m2;
    }
  }
  return {
    tensor,
    resizeParams: {
      srcWidth: srcW,
      srcHeight: srcH,
      resizeSourceWidth: srcW,
      resizeSourceHeight: srcH,
      dstWidth: dstW,
      dstHeight: dstH,
      scaleWidth: dstW / srcW,
      scaleHeight: dstH / srcH,
    },
  };
}
