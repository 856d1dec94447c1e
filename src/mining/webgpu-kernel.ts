/**
 * GPU plumbing for the WGSL BLAKE3 PoW kernel (shaders/blake3-pow.wgsl): compiling it, its buffers, and one
 * dispatch of each entry point. Isomorphic: takes a GPUDevice and the shader text, reads no WebGPU globals
 * (GPUBufferUsage and friends exist in browsers but not in Node), so their numeric values from the WebGPU spec are
 * used. The PowBackend on top of it is src/mining/webgpu-backend.ts; the design is in docs/webgpu.md.
 */
import { WeftError } from '../errors.ts';

/** WebGPU spec values of GPUBufferUsage, GPUMapMode.READ and GPUShaderStage.COMPUTE. */
const usage = { mapRead: 0x1, copySrc: 0x4, copyDst: 0x8, uniform: 0x40, storage: 0x80 } as const;
const mapModeRead = 0x1;
const shaderStageCompute = 0x4;

const workgroupSize = 64; // @workgroup_size in the shader
const paramsWords = 36; // struct Params: 9 × vec4u
const resultBytes = 16; // struct SearchResult, padded
const noWinner = 0xffffffff;
export const digestBytes = 32;
/** hash_raw items: 16 message words + block_len. */
export const rawItemWords = 17;
/** Each invocation tries at least this many nonces before more workgroups are launched. */
const noncesPerInvocationMin = 16;

/** The GPU could not run the kernel (shader error, device lost, validation error) or was given a bad job. */
export class WebGpuPowError extends WeftError {
  constructor(message: string, options: { details?: unknown; cause?: unknown } = {}) {
    super('mining_error', message, options);
  }
}

/** What one search dispatch needs besides the nonce range: the per-job uniform contents. */
export interface SearchJobWords {
  /** State after round 1's G0..G6 (16 words). */
  readonly mid: Uint32Array;
  /** m0..m7: the pre-PoW hash as little-endian words. */
  readonly hdr: Uint32Array;
  readonly target: bigint;
}

export interface PowKernel {
  /** One dispatch over nonces base .. base+count-1 (count ≤ 2^32-1): the lowest winning offset, or null. */
  search(job: SearchJobWords, base: bigint, count: number): Promise<number | null>;
  /** hash_one: 8 digest words per nonce item (items = lo, hi pairs). */
  hashOne(job: SearchJobWords, items: Uint32Array<ArrayBuffer>, count: number): Promise<Uint32Array>;
  /** hash_raw: 8 digest words per raw item (rawItemWords words each). */
  hashRaw(items: Uint32Array<ArrayBuffer>, count: number): Promise<Uint32Array>;
  destroy(): void;
}

interface Pipelines {
  readonly search: GPUComputePipeline;
  readonly hashOne: GPUComputePipeline;
  readonly hashRaw: GPUComputePipeline;
  readonly searchLayout: GPUBindGroupLayout;
  readonly debugLayout: GPUBindGroupLayout;
}

async function compile(device: GPUDevice, shaderSource: string): Promise<Pipelines> {
  // A scope, so that a broken shader is this function's error and not an uncaptured device error.
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ label: 'blake3-pow', code: shaderSource });
  const scoped = await device.popErrorScope();
  const errors = (await module.getCompilationInfo()).messages.filter((m) => m.type === 'error');
  if (errors.length > 0) {
    const text = errors.map((m) => `${m.lineNum}:${m.linePos} ${m.message}`).join('; ');
    throw new WebGpuPowError(`blake3-pow.wgsl: expected a valid shader, got ${errors.length} error(s): ${text}`);
  }
  if (scoped !== null) throw new WebGpuPowError(`blake3-pow.wgsl: shader module rejected: ${scoped.message}`);
  // Explicit layouts: with layout 'auto' a bind group made for one entry point does not fit another.
  const entry = (binding: number, buffer: GPUBufferBindingLayout): GPUBindGroupLayoutEntry =>
    ({ binding, visibility: shaderStageCompute, buffer });
  const searchLayout = device.createBindGroupLayout({
    label: 'pow-search',
    entries: [entry(0, { type: 'uniform' }), entry(1, { type: 'storage' })],
  });
  const debugLayout = device.createBindGroupLayout({
    label: 'pow-debug',
    entries: [entry(0, { type: 'uniform' }), entry(2, { type: 'read-only-storage' }), entry(3, { type: 'storage' })],
  });
  const pipeline = (entryPoint: string, layout: GPUBindGroupLayout): Promise<GPUComputePipeline> =>
    device.createComputePipelineAsync({
      label: entryPoint,
      layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
      compute: { module, entryPoint },
    });
  try {
    const [search, hashOne, hashRaw] = await Promise.all([
      pipeline('search', searchLayout), pipeline('hash_one', debugLayout), pipeline('hash_raw', debugLayout),
    ]);
    return { search, hashOne, hashRaw, searchLayout, debugLayout };
  } catch (cause) {
    throw new WebGpuPowError(`blake3-pow.wgsl: pipeline creation failed: ${String(cause)}`, { cause });
  }
}

/** Params uniform: mid (4 vec4u), hdr (2), tgt (2, big-endian words), base (lo, hi, count, iters). */
function writeParams(out: Uint32Array, job: SearchJobWords | null, base: bigint, count: number, iters: number): void {
  out.fill(0);
  if (job !== null) {
    out.set(job.mid, 0);
    out.set(job.hdr, 16);
    for (let i = 0; i < 8; i++) out[24 + i] = Number((job.target >> BigInt(224 - 32 * i)) & 0xffffffffn);
  }
  out[32] = Number(base & 0xffffffffn);
  out[33] = Number((base >> 32n) & 0xffffffffn);
  out[34] = count;
  out[35] = iters;
}

/** Submits with a validation scope so that a bad dispatch rejects here instead of going uncaptured. */
async function submitChecked(device: GPUDevice, encoder: GPUCommandEncoder, what: string): Promise<void> {
  device.pushErrorScope('validation');
  device.queue.submit([encoder.finish()]);
  const error = await device.popErrorScope();
  if (error !== null) throw new WebGpuPowError(`webgpu ${what} dispatch: ${error.message}`);
}

function encodePass(device: GPUDevice, pipeline: GPUComputePipeline, group: GPUBindGroup, groups: number): GPUCommandEncoder {
  const encoder = device.createCommandEncoder({ label: pipeline.label });
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, group);
  pass.dispatchWorkgroups(groups);
  pass.end();
  return encoder;
}

/** Compiles the kernel on `device` and allocates its long-lived buffers. */
export async function createPowKernel(device: GPUDevice, shaderSource: string): Promise<PowKernel> {
  const p = await compile(device, shaderSource);
  const maxGroups = device.limits.maxComputeWorkgroupsPerDimension;
  const paramWords = new Uint32Array(paramsWords);
  const params = device.createBuffer({ label: 'pow-params', size: paramsWords * 4, usage: usage.uniform | usage.copyDst });
  const result = device.createBuffer({ label: 'pow-result', size: resultBytes, usage: usage.storage | usage.copySrc | usage.copyDst });
  const readback = device.createBuffer({ label: 'pow-readback', size: resultBytes, usage: usage.mapRead | usage.copyDst });
  const searchGroup = device.createBindGroup({
    layout: p.searchLayout,
    entries: [{ binding: 0, resource: { buffer: params } }, { binding: 1, resource: { buffer: result } }],
  });
  const resetWords = new Uint32Array([noWinner, 0, 0, 0]);

  const search = async (job: SearchJobWords, base: bigint, count: number): Promise<number | null> => {
    const groups = Math.min(maxGroups, Math.ceil(count / (workgroupSize * noncesPerInvocationMin)));
    writeParams(paramWords, job, base, count, Math.ceil(count / (groups * workgroupSize)));
    device.queue.writeBuffer(params, 0, paramWords);
    device.queue.writeBuffer(result, 0, resetWords);
    const encoder = encodePass(device, p.search, searchGroup, groups);
    encoder.copyBufferToBuffer(result, 0, readback, 0, resultBytes);
    await submitChecked(device, encoder, 'search');
    await readback.mapAsync(mapModeRead);
    const minOffset = new Uint32Array(readback.getMappedRange(), 0, 1)[0]!;
    readback.unmap();
    return minOffset < count ? minOffset : null;
  };

  const debug = async (pipeline: GPUComputePipeline, job: SearchJobWords | null, items: Uint32Array<ArrayBuffer>,
    count: number): Promise<Uint32Array> => {
    writeParams(paramWords, job, 0n, count, 1);
    device.queue.writeBuffer(params, 0, paramWords);
    const outBytes = Math.max(16, count * digestBytes);
    const input = device.createBuffer({ size: Math.max(16, items.byteLength), usage: usage.storage | usage.copyDst });
    const output = device.createBuffer({ size: outBytes, usage: usage.storage | usage.copySrc });
    const staging = device.createBuffer({ size: outBytes, usage: usage.mapRead | usage.copyDst });
    try {
      device.queue.writeBuffer(input, 0, items);
      const group = device.createBindGroup({
        layout: p.debugLayout,
        entries: [{ binding: 0, resource: { buffer: params } }, { binding: 2, resource: { buffer: input } },
          { binding: 3, resource: { buffer: output } }],
      });
      const encoder = encodePass(device, pipeline, group, Math.max(1, Math.ceil(count / workgroupSize)));
      encoder.copyBufferToBuffer(output, 0, staging, 0, outBytes);
      await submitChecked(device, encoder, pipeline.label);
      await staging.mapAsync(mapModeRead);
      const words = new Uint32Array(staging.getMappedRange().slice(0));
      staging.unmap();
      return words;
    } finally {
      input.destroy();
      output.destroy();
      staging.destroy();
    }
  };

  return {
    search,
    hashOne: (job, items, count) => debug(p.hashOne, job, items, count),
    hashRaw: (items, count) => debug(p.hashRaw, null, items, count),
    destroy: () => {
      params.destroy();
      result.destroy();
      readback.destroy();
    },
  };
}
