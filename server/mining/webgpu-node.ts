/**
 * WebGPU in Node for the PoW kernel: opens a GPUDevice through the npm `webgpu` package (Dawn's dawn.node) on
 * Vulkan. On a machine without a GPU it points the Vulkan loader at a CPU driver. docs/webgpu.md ("Drivers").
 *
 * Search order, first adapter wins:
 *   1. VK_ICD_FILENAMES / VK_DRIVER_FILES set by the caller: only that, untouched.
 *   2. The loader's own ICD discovery: a real GPU driver (nvidia_icd.json, Mesa's radv/anv with /dev/dri) gives a
 *      non-fallback adapter. A CPU adapter found this way (system lavapipe that Dawn accepts) is kept too.
 *   3. lavapipe ICD files in the standard directories, named explicitly (Mesa ≥ 25; Dawn rejects bookworm's 22.3).
 *   4. SwiftShader's ICD as shipped by Debian's chromium (or Google Chrome): always accepted, ~30× slower.
 * Steps 3–4 set VK_ICD_FILENAMES for this process only when the caller did not set one. XDG_RUNTIME_DIR is pointed
 * at a private directory when missing, which only silences "XDG_RUNTIME_DIR is invalid" loader noise.
 */
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from 'webgpu';

export interface NodeWebGpu {
  readonly device: GPUDevice;
  readonly adapterInfo: GPUAdapterInfo;
  /** The ICD file this process set in VK_ICD_FILENAMES, or null when the loader chose (or the caller did). */
  readonly icd: string | null;
  /** Destroys the device and drops dawn.node's instance so that Node can exit. */
  close(): void;
}

export interface OpenNodeWebGpuOptions {
  /** Told why no adapter could be opened (the function then resolves null). */
  readonly onUnavailable?: (reason: string) => void;
  /** Uncaptured device errors; default: written to stderr. */
  readonly onDeviceError?: (message: string) => void;
}

const nodeWebGpuInstallHint = 'install a CPU Vulkan driver as root with .ci/install-vulkan.sh (see docs/webgpu.md)';

/** Vulkan loader ICD manifest directories on Linux, in the loader's order. */
const icdDirs = ['/etc/vulkan/icd.d', '/usr/local/share/vulkan/icd.d', '/usr/share/vulkan/icd.d'] as const;
const swiftShaderIcds = ['/usr/lib/chromium/vk_swiftshader_icd.json', '/opt/google/chrome/vk_swiftshader_icd.json'] as const;

function lavapipeIcds(): string[] {
  const found: string[] = [];
  for (const dir of icdDirs) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names.sort()) if (/^lvp_icd.*\.json$/.test(name)) found.push(join(dir, name));
  }
  return found;
}

function quietXdgRuntimeDir(): void {
  const current = process.env['XDG_RUNTIME_DIR'];
  if (current !== undefined && existsSync(current) && statSync(current).isDirectory()) return;
  const dir = join(tmpdir(), `weft-xdg-${process.getuid?.() ?? 'user'}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  process.env['XDG_RUNTIME_DIR'] = dir;
}

interface Candidate {
  readonly label: string;
  /** ICD manifest to set, or null for the loader's discovery / the caller's setting. */
  readonly icd: string | null;
}

function candidates(): Candidate[] {
  const callerIcd = process.env['VK_ICD_FILENAMES'] ?? process.env['VK_DRIVER_FILES'];
  if (callerIcd !== undefined && callerIcd !== '') {
    return [{ label: `caller's VK_ICD_FILENAMES/VK_DRIVER_FILES=${callerIcd}`, icd: null }];
  }
  return [
    { label: 'Vulkan loader discovery', icd: null },
    ...lavapipeIcds().map((icd) => ({ label: `lavapipe ${icd}`, icd })),
    ...swiftShaderIcds.filter((icd) => existsSync(icd)).map((icd) => ({ label: `SwiftShader ${icd}`, icd })),
  ];
}

async function requestAdapter(gpu: GPU): Promise<GPUAdapter | string> {
  try {
    return (await gpu.requestAdapter({ powerPreference: 'high-performance' })) ?? 'no adapter';
  } catch (error) {
    return String(error);
  }
}

/**
 * Opens a WebGPU device in Node, or resolves null (with the reason given to `onUnavailable`) when no adapter
 * exists on any driver of the search order above.
 */
export async function openNodeWebGpu(options: OpenNodeWebGpuOptions = {}): Promise<NodeWebGpu | null> {
  quietXdgRuntimeDir();
  const tried: string[] = [];
  for (const candidate of candidates()) {
    if (candidate.icd !== null) process.env['VK_ICD_FILENAMES'] = candidate.icd;
    // The loader reads VK_ICD_FILENAMES when Dawn creates its Vulkan instance, i.e. on each create().
    let gpu: GPU | null = create([]);
    const adapter = await requestAdapter(gpu);
    if (typeof adapter === 'string') {
      tried.push(`${candidate.label}: ${adapter}`);
      if (candidate.icd !== null) delete process.env['VK_ICD_FILENAMES'];
      continue;
    }
    const device = await adapter.requestDevice({ label: 'weft-pow' });
    const report = options.onDeviceError ?? ((message: string): void => { process.stderr.write(`webgpu: ${message}\n`); });
    // Without a listener dawn.node prints every uncaptured error itself.
    device.addEventListener('uncapturederror', (event) => report((event as GPUUncapturedErrorEvent).error.message));
    return {
      device,
      adapterInfo: adapter.info,
      icd: candidate.icd,
      close: () => {
        device.destroy();
        gpu = null; // dawn.node keeps Node alive while its instance is referenced
      },
    };
  }
  options.onUnavailable?.(`no WebGPU adapter (tried: ${tried.join('; ')}); ${nodeWebGpuInstallHint}`);
  return null;
}
