/**
 * Opens the GPU backends the mining control runs (start_mining `gpu_mining`, `gpu_devices`): one WebGPU PoW backend
 * per selected adapter, through the npm `webgpu` package (Dawn) as server/mining/webgpu-node.ts sets it up.
 *
 * What `gpu_devices` indices mean on Dawn (docs/mining.md "GPU devices"): WebGPU itself has no adapter list, so the
 * index is a position in the list dawn.node prints when asked for an adapter name that does not exist ("Available
 * adapters: * backend: 'vulkan', name: '…'"), i.e. Dawn's enumeration order of the Vulkan physical devices the
 * loader exposes to this process (after webgpu-node.ts' driver choice). An adapter is then opened by its name
 * (dawn.node's `adapter=` flag picks the first adapter whose name contains the text), so of several adapters with
 * the same name only the first can be opened: asking for a later one is refused with that reason rather than
 * silently mining twice on one device. An empty `gpu_devices` means the default adapter (WebGPU's
 * high-performance choice), reported as index 0.
 *
 * Never a silent CPU fallback: when no adapter exists the promise rejects with MiningError (-40005) and the reason.
 */
import { create } from 'webgpu';
import { MiningError } from '../../src/mining/errors.ts';
import { createWebGpuPowBackend, describeAdapter, type WebGpuPowBackend } from '../../src/mining/webgpu-backend.ts';
import { readPowShaderSource } from './shader-source.ts';
import { openNodeWebGpu } from './webgpu-node.ts';

/** More GPUs than any one host carries; bounds the gpu_devices list. */
export const gpuDevicesMax = 64;

export interface OpenedGpuBackend {
  /** The gpu_devices index (0 for the default adapter). */
  readonly index: number;
  /** Adapter description, e.g. "llvmpipe: Mesa 25.0.7 … (mesa, software)". */
  readonly adapter: string;
  readonly backend: WebGpuPowBackend;
  /** Frees the backend and its device. */
  close(): Promise<void>;
}

/** Opens backends for `devices` (empty: the default adapter); rejects with MiningError when any cannot be opened. */
export type GpuBackendOpener = (devices: readonly number[]) => Promise<OpenedGpuBackend[]>;

/** Adapter names in Dawn's enumeration order, parsed from dawn.node's "Available adapters" error. */
export async function listDawnAdapters(): Promise<string[]> {
  let gpu: GPU | null = create(['adapter=\u0001weft-list-adapters']);
  try {
    await gpu.requestAdapter();
    return [];
  } catch (error) {
    const names: string[] = [];
    for (const match of String(error).matchAll(/^\s*\* backend: '[^']*', name: '(.*)'\s*$/gm)) names.push(match[1]!);
    return names;
  } finally {
    gpu = null; // dawn.node keeps Node alive while its instance is referenced
  }
}

async function openByName(index: number, name: string, shaderSource: string): Promise<OpenedGpuBackend> {
  let gpu: GPU | null = create([`adapter=${name}`]);
  let adapter: GPUAdapter | null;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch (cause) {
    throw new MiningError(`gpu_devices: adapter ${index} ('${name}') could not be opened: ${String(cause)}`, { cause });
  }
  if (adapter === null) throw new MiningError(`gpu_devices: adapter ${index} ('${name}') could not be opened`);
  const device = await adapter.requestDevice({ label: `weft-pow-${index}` });
  const backend = await createWebGpuPowBackend({ device, shaderSource, adapterInfo: adapter.info });
  return {
    index,
    adapter: describeAdapter(adapter.info),
    backend,
    close: async () => {
      await backend.close();
      device.destroy();
      gpu = null;
    },
  };
}

function checkDevices(devices: readonly number[]): void {
  if (devices.length > gpuDevicesMax) throw new MiningError(`gpu_devices: at most ${gpuDevicesMax} entries, got ${devices.length}`);
  const seen = new Set<number>();
  for (const d of devices) {
    if (!Number.isSafeInteger(d) || d < 0) throw new MiningError(`gpu_devices: expected integers ≥ 0, got ${String(d)}`);
    if (seen.has(d)) throw new MiningError(`gpu_devices: device ${d} listed twice`);
    seen.add(d);
  }
}

/** Opens the default adapter the way webgpu-node.ts searches for one (docs/webgpu.md "Drivers"). */
async function openDefault(shaderSource: string): Promise<OpenedGpuBackend[]> {
  let reason = 'no WebGPU adapter';
  const opened = await openNodeWebGpu({ onUnavailable: (r) => { reason = r; } });
  if (opened === null) throw new MiningError(`GPU mining unavailable: ${reason}`, { details: { reason } });
  const backend = await createWebGpuPowBackend({ device: opened.device, shaderSource, adapterInfo: opened.adapterInfo });
  const close = async (): Promise<void> => {
    await backend.close();
    opened.close();
  };
  return [{ index: 0, adapter: backend.adapterDescription, backend, close }];
}

/**
 * Dawn's adapter list. When the loader alone finds none, webgpu-node.ts' driver search runs first (it may point
 * VK_ICD_FILENAMES at lavapipe or SwiftShader for this process) and the list is read again.
 */
async function adapterNames(): Promise<string[]> {
  const names = await listDawnAdapters();
  if (names.length > 0) return names;
  let reason = 'no WebGPU adapter';
  const opened = await openNodeWebGpu({ onUnavailable: (r) => { reason = r; } });
  if (opened === null) throw new MiningError(`GPU mining unavailable: ${reason}`, { details: { reason } });
  opened.close();
  return listDawnAdapters();
}

/** The default opener: Dawn through webgpu-node.ts. Each backend gets its own device; Dawn instances are few. */
export const openNodeGpuBackends: GpuBackendOpener = async (devices) => {
  checkDevices(devices);
  const shaderSource = readPowShaderSource();
  if (devices.length === 0) return openDefault(shaderSource);
  const names = await adapterNames();
  const result: OpenedGpuBackend[] = [];
  try {
    for (const index of devices) {
      const name = names[index];
      if (name === undefined) {
        throw new MiningError(`gpu_devices: no adapter ${index}; Dawn lists ${names.length}: ${names.map((n, i) => `${i} '${n}'`).join(', ') || 'none'}`);
      }
      const first = names.findIndex((n) => n.includes(name));
      if (first !== index) {
        throw new MiningError(`gpu_devices: adapter ${index} ('${name}') cannot be told apart from adapter ${first} by Dawn's adapter-name selection`);
      }
      result.push(await openByName(index, name, shaderSource));
    }
  } catch (error) {
    await Promise.all(result.map((r) => r.close()));
    throw error;
  }
  return result;
};
