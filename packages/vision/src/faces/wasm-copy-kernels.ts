/**
 * Faster Concat and Slice kernels for the tfjs wasm backend, for the one case it handles badly.
 *
 * The backend runs both in JavaScript, copying one innermost run at a time through a new
 * `subarray()` view. When that run is 1–3 values long (face-api's normalize() concatenates three
 * one-channel planes; its extractFaceTensors() slices RGB pixels), that is one view object per value:
 * about 60 ms of every face embedding went there (measured with node --cpu-prof on bench:faces).
 * These versions copy short runs with plain loops and hand every other case to the original kernel,
 * so results are identical; wasm-copy-kernels.test.ts compares them with tfjs's cpu backend.
 */
import type * as TF from '@tensorflow/tfjs';

type TfModule = typeof TF;
type TypedArray = Float32Array | Int32Array | Uint8Array;
type WasmBackend = {
  makeOutput(shape: number[], dtype: TF.DataType): TF.TensorInfo;
  typedArrayFromHeap(t: TF.TensorInfo): TypedArray;
};
type KernelArgs = {
  inputs: Record<string, TF.TensorInfo> | TF.TensorInfo[];
  backend: WasmBackend;
  attrs: Record<string, unknown>;
};

/** Innermost runs shorter than this are copied value by value; longer ones by the original kernel. */
const SHORT_RUN = 16;

export function fastConcat(tf: TfModule, original: TF.KernelFunc) {
  return (args: KernelArgs): TF.TensorInfo => {
    const inputs = args.inputs as TF.TensorInfo[];
    const first = inputs[0]!;
    const axis = tf.util.parseAxisParam(args.attrs['axis'] as number, first.shape)[0]!;
    const parts = inputs.filter((t) => tf.util.sizeFromShape(t.shape) > 0);
    const runs = parts.map((t) => tf.util.sizeFromShape(t.shape.slice(axis)));
    if (first.dtype === 'string' || parts.length < 2 || Math.max(...runs) >= SHORT_RUN) {
      return original(args as unknown as Parameters<TF.KernelFunc>[0]) as TF.TensorInfo;
    }
    tf.backend_util.assertParamsConsistent(
      inputs.map((t) => t.shape),
      axis,
    );
    const outShape = tf.backend_util.computeOutShape(
      inputs.map((t) => t.shape),
      axis,
    );
    const { backend } = args;
    const out = backend.makeOutput(outShape, first.dtype);
    const outVals = backend.typedArrayFromHeap(out);
    const rows = tf.util.sizeFromShape(parts[0]!.shape.slice(0, axis));
    const rowLength = runs.reduce((a, b) => a + b, 0);
    let column = 0;
    parts.forEach((part, i) => {
      const run = runs[i]!;
      const vals = backend.typedArrayFromHeap(part);
      for (let row = 0; row < rows; row++) {
        const from = row * run;
        const to = row * rowLength + column;
        for (let k = 0; k < run; k++) outVals[to + k] = vals[from + k]!;
      }
      column += run;
    });
    return out;
  };
}

export function fastSlice(tf: TfModule, original: TF.KernelFunc) {
  return (args: KernelArgs): TF.TensorInfo => {
    const x = (args.inputs as Record<string, TF.TensorInfo>)['x']!;
    const rank = x.shape.length;
    const [begin = [], size = []] = tf.slice_util.parseSliceParams(
      x,
      args.attrs['begin'] as number[],
      args.attrs['size'] as number[],
    );
    const run = size[rank - 1] ?? 0;
    if (
      x.dtype === 'string' ||
      (rank !== 3 && rank !== 4) ||
      run >= SHORT_RUN ||
      tf.slice_util.isSliceContinous(x.shape, begin, size)
    ) {
      return original(args as unknown as Parameters<TF.KernelFunc>[0]) as TF.TensorInfo;
    }
    // Past-the-end slices throw here, as on the cpu backend (the original wasm kernel copied garbage).
    tf.slice_util.assertParamsValid(x, begin, size);
    const { backend } = args;
    const out = backend.makeOutput(size, x.dtype);
    const outVals = backend.typedArrayFromHeap(out);
    const xVals = backend.typedArrayFromHeap(x);
    // A rank-3 slice is a rank-4 one with a batch of 1.
    const shape4 = rank === 3 ? [1, ...x.shape] : x.shape;
    const begin4 = rank === 3 ? [0, ...begin] : begin;
    const size4 = rank === 3 ? [1, ...size] : size;
    const [, d1, d2, d3] = shape4 as [number, number, number, number];
    const s2 = d3;
    const s1 = d2 * s2;
    const s0 = d1 * s1;
    const [b0, b1, b2, b3] = begin4 as [number, number, number, number];
    const [n0, n1, n2] = size4 as [number, number, number, number];
    let o = 0;
    for (let i = b0; i < b0 + n0; i++) {
      for (let j = b1; j < b1 + n1; j++) {
        for (let k = b2; k < b2 + n2; k++) {
          const from = i * s0 + j * s1 + k * s2 + b3;
          for (let l = 0; l < run; l++) outVals[o++] = xVals[from + l]!;
        }
      }
    }
    return out;
  };
}

/** Marks our kernels, so a second install (another copy of this module) does not wrap them again. */
const FAST = Symbol.for('boomgate.wasmCopyKernel');

/** Replaces the wasm backend's Concat and Slice kernels (idempotent; call after setBackend). */
export function installWasmCopyKernels(tf: TfModule): void {
  for (const [name, make] of [
    ['Concat', fastConcat],
    ['Slice', fastSlice],
  ] as const) {
    const config = tf.getKernel(name, 'wasm');
    if (!config) throw new Error(`The tfjs wasm backend has no ${name} kernel`);
    if (FAST in config.kernelFunc) continue;
    const kernelFunc = Object.assign(make(tf, config.kernelFunc), { [FAST]: true });
    tf.unregisterKernel(name, 'wasm');
    tf.registerKernel({ ...config, kernelFunc: kernelFunc as unknown as TF.KernelFunc });
  }
}
