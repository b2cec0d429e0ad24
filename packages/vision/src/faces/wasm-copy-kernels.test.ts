import { createRequire } from 'node:module';
import path from 'node:path';

import type * as TF from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';

import { installWasmCopyKernels } from './wasm-copy-kernels';

const require = createRequire(import.meta.url);
const tf = require('@tensorflow/tfjs') as typeof TF;

/** Runs `op` on fresh tensors of the given backend and returns the result's shape and values. */
async function on(backend: 'cpu' | 'wasm', op: () => TF.Tensor) {
  await tf.setBackend(backend);
  const out = tf.tidy(op);
  const result = { shape: out.shape, values: Array.from(await out.data()) };
  out.dispose();
  return result;
}

const ramp = (shape: number[], dtype: 'float32' | 'int32' = 'float32') =>
  tf.tensor(
    Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => i * 0.5 - 3),
    shape,
    dtype,
  );

const originals: Record<string, TF.KernelFunc> = {};

beforeAll(async () => {
  const wasm = require('@tensorflow/tfjs-backend-wasm') as { setWasmPaths: (p: string) => void };
  const dist = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json'));
  wasm.setWasmPaths(path.join(dist, 'dist') + path.sep);
  expect(await tf.setBackend('wasm')).toBe(true);
  for (const name of ['Concat', 'Slice']) originals[name] = tf.getKernel(name, 'wasm').kernelFunc;
  installWasmCopyKernels(tf);
});

describe('the wasm Concat and Slice kernels with short innermost runs', () => {
  const concats: [string, () => TF.Tensor][] = [
    // face-api's normalize(): three one-channel planes side by side on the channel axis.
    [
      'three planes on the last axis',
      () =>
        tf.concat([ramp([1, 5, 7, 1]), ramp([1, 5, 7, 1]).mul(2), ramp([1, 5, 7, 1]).add(9)], 3),
    ],
    [
      'uneven runs, int32',
      () => tf.concat([ramp([4, 3, 2], 'int32'), ramp([4, 3, 1], 'int32')], 2),
    ],
    ['a middle axis', () => tf.concat([ramp([2, 3, 4]), ramp([2, 1, 4])], 1)],
    ['long runs (original kernel)', () => tf.concat([ramp([2, 40]), ramp([2, 20])], 1)],
    ['an empty part', () => tf.concat([ramp([3, 0, 2]), ramp([3, 2, 2])], 1)],
  ];
  it.each(concats)('concat: %s equals the cpu backend', async (_, op) => {
    expect(await on('wasm', op)).toEqual(await on('cpu', op));
  });

  const slices: [string, () => TF.Tensor][] = [
    // face-api's extractFaceTensors(): a box of RGB pixels.
    ['an RGB box', () => tf.slice(ramp([9, 11, 3]), [2, 3, 0], [4, 5, 3])],
    [
      'rank 4, part of the channels',
      () => tf.slice(ramp([2, 6, 5, 4]), [1, 1, 2, 1], [1, 4, 2, 2]),
    ],
    ['-1 sizes', () => tf.slice(ramp([6, 7, 3], 'int32'), [1, 2, 1], [-1, -1, 2])],
    ['contiguous rows (original kernel)', () => tf.slice(ramp([6, 7, 3]), [2, 0, 0], [3, 7, 3])],
    ['rank 2 (original kernel)', () => tf.slice(ramp([6, 7]), [1, 2], [3, 4])],
  ];
  it.each(slices)('slice: %s equals the cpu backend', async (_, op) => {
    expect(await on('wasm', op)).toEqual(await on('cpu', op));
  });

  it('replaces both kernels, once', () => {
    for (const name of ['Concat', 'Slice']) {
      expect(tf.getKernel(name, 'wasm').kernelFunc).not.toBe(originals[name]);
    }
    const concat = tf.getKernel('Concat', 'wasm').kernelFunc;
    installWasmCopyKernels(tf);
    expect(tf.getKernel('Concat', 'wasm').kernelFunc).toBe(concat);
  });
});
