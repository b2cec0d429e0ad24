import { createRequire } from 'node:module';
import path from 'node:path';

import type * as TF from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it, vi } from 'vitest';

import { fastConcat, fastSlice, installWasmCopyKernels } from './wasm-copy-kernels';

const require = createRequire(import.meta.url);
const tf = require('@tensorflow/tfjs') as typeof TF;
// Quiet: the cpu backend here is the reference, not a missed chance to install tfjs-node.
tf.env().set('IS_TEST', true);

/** Runs `op` on fresh tensors of the given backend and returns the result's shape and values. */
async function on(backend: 'cpu' | 'wasm', op: () => TF.Tensor) {
  await tf.setBackend(backend);
  const out = tf.tidy(op);
  const result = { shape: out.shape, values: Array.from(await out.data()) };
  out.dispose();
  return result;
}

const ramp = (shape: number[], dtype: 'float32' | 'int32' | 'bool' = 'float32') => {
  const length = shape.reduce((a, b) => a * b, 1);
  const values =
    dtype === 'bool'
      ? Array.from({ length }, (_, i) => i % 3 === 0)
      : Array.from({ length }, (_, i) => i * 0.5 - 3);
  return tf.tensor(values, shape, dtype);
};

const originals: Record<string, TF.KernelConfig> = {};
/** The original kernels as our kernels call them, recording whether a case fell through to them. */
const fellThrough = { Concat: vi.fn(), Slice: vi.fn() };

/** Registers `kernelFunc` in place of the wasm backend's kernel `name`. */
function register(name: string, kernelFunc: TF.KernelFunc) {
  tf.unregisterKernel(name, 'wasm');
  tf.registerKernel({ ...originals[name]!, kernelFunc });
}

beforeAll(async () => {
  const wasm = require('@tensorflow/tfjs-backend-wasm') as { setWasmPaths: (p: string) => void };
  const dist = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json'));
  wasm.setWasmPaths(path.join(dist, 'dist') + path.sep);
  expect(await tf.setBackend('wasm')).toBe(true);
  for (const [name, make] of [
    ['Concat', fastConcat],
    ['Slice', fastSlice],
  ] as const) {
    originals[name] = tf.getKernel(name, 'wasm');
    const original = originals[name].kernelFunc;
    fellThrough[name].mockImplementation(original);
    register(name, make(tf, fellThrough[name]) as TF.KernelFunc);
  }
});

type Case = [string, 'fast' | 'original', () => TF.Tensor];

describe('the wasm Concat and Slice kernels with short innermost runs', () => {
  const concats: Case[] = [
    // face-api's normalize(): three one-channel planes side by side on the channel axis.
    [
      'three planes on the last axis',
      'fast',
      () =>
        tf.concat([ramp([1, 5, 7, 1]), ramp([1, 5, 7, 1]).mul(2), ramp([1, 5, 7, 1]).add(9)], 3),
    ],
    [
      'uneven runs, int32',
      'fast',
      () => tf.concat([ramp([4, 3, 2], 'int32'), ramp([4, 3, 1], 'int32')], 2),
    ],
    ['bool', 'fast', () => tf.concat([ramp([3, 2], 'bool'), ramp([3, 1], 'bool')], 1)],
    ['a middle axis', 'fast', () => tf.concat([ramp([2, 3, 4]), ramp([2, 1, 4])], 1)],
    [
      'an empty part between two others',
      'fast',
      () => tf.concat([ramp([3, 2, 2]), ramp([3, 0, 2]), ramp([3, 1, 2])], 1),
    ],
    ['long runs', 'original', () => tf.concat([ramp([2, 40]), ramp([2, 20])], 1)],
    ['one non-empty part', 'original', () => tf.concat([ramp([3, 0, 2]), ramp([3, 2, 2])], 1)],
  ];
  it.each(concats)('concat: %s equals the cpu backend (%s path)', async (_, path, op) => {
    const expected = await on('cpu', op);
    fellThrough.Concat.mockClear();

    expect(await on('wasm', op)).toEqual(expected);
    expect(fellThrough.Concat).toHaveBeenCalledTimes(path === 'original' ? 1 : 0);
  });

  const slices: Case[] = [
    // face-api's extractFaceTensors(): a box of RGB pixels.
    ['an RGB box', 'fast', () => tf.slice(ramp([9, 11, 3]), [2, 3, 0], [4, 5, 3])],
    [
      'rank 4, part of the channels',
      'fast',
      () => tf.slice(ramp([2, 6, 5, 4]), [1, 1, 2, 1], [1, 4, 2, 2]),
    ],
    ['-1 sizes', 'fast', () => tf.slice(ramp([6, 7, 3], 'int32'), [1, 2, 1], [-1, -1, 2])],
    ['contiguous rows', 'original', () => tf.slice(ramp([6, 7, 3]), [2, 0, 0], [3, 7, 3])],
    ['rank 2', 'original', () => tf.slice(ramp([6, 7]), [1, 2], [3, 4])],
    ['long runs', 'original', () => tf.slice(ramp([3, 4, 40]), [1, 1, 2], [2, 2, 30])],
  ];
  it.each(slices)('slice: %s equals the cpu backend (%s path)', async (_, path, op) => {
    const expected = await on('cpu', op);
    fellThrough.Slice.mockClear();

    expect(await on('wasm', op)).toEqual(expected);
    expect(fellThrough.Slice).toHaveBeenCalledTimes(path === 'original' ? 1 : 0);
  });

  it('refuses a slice past the end, as the cpu backend does', async () => {
    await tf.setBackend('wasm');
    expect(() => tf.slice(ramp([4, 4, 3]), [2, 2, 0], [3, 1, 2])).toThrow();
  });
});

describe('installWasmCopyKernels', () => {
  it('replaces both kernels, and only once however often it is called', async () => {
    await tf.setBackend('wasm');
    for (const name of ['Concat', 'Slice']) register(name, originals[name]!.kernelFunc);

    installWasmCopyKernels(tf);
    const installed = ['Concat', 'Slice'].map((name) => tf.getKernel(name, 'wasm').kernelFunc);
    installWasmCopyKernels(tf);

    ['Concat', 'Slice'].forEach((name, i) => {
      expect(installed[i]).not.toBe(originals[name]!.kernelFunc);
      expect(tf.getKernel(name, 'wasm').kernelFunc).toBe(installed[i]);
    });
  });
});
