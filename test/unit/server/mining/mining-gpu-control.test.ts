// GPU mining through the mining control, on whatever WebGPU adapter Dawn opens here — in CI the CPU Vulkan driver
// (lavapipe, or SwiftShader) that .ci/install-vulkan.sh installs: blocks it finds carry gpu_mining = true. A GPU
// request that cannot be met answers -40005 with the reason and starts nothing (no silent CPU fallback).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openChain, type Chain } from '../../../../src/chain/chain.ts';
import { regtestParams } from '../../../../src/consensus/params.ts';
import { encodeAddress, standardAddress } from '../../../../src/crypto/address.ts';
import { generatePrivateKey, publicKeyFromPrivate } from '../../../../src/crypto/keys.ts';
import { ErrorCode } from '../../../../src/errors.ts';
import type { MiningEvent } from '../../../../src/mining/control.ts';
import { MiningError } from '../../../../src/mining/errors.ts';
import { createMemoryStore } from '../../../../src/storage/memory-store.ts';
import { systemClock } from '../../../../src/util/clock.ts';
import { toHex } from '../../../../src/util/bytes.ts';
import { createLogger } from '../../../../server/logger.ts';
import { listDawnAdapters } from '../../../../server/mining/gpu-adapters.ts';
import { createMiningControl, type MiningControlOptions, type NodeMiningControl } from '../../../../server/mining/mining-control.ts';

const minerBytes = standardAddress(publicKeyFromPrivate(generatePrivateKey((n) => crypto.getRandomValues(new Uint8Array(n)))));
const minerAddress = encodeAddress(regtestParams.hrp, minerBytes);
let datadir: string;
let chain: Chain;
const controls: NodeMiningControl[] = [];

function control(extra: Partial<MiningControlOptions> = {}): NodeMiningControl {
  const c = createMiningControl({ chain, config: { params: regtestParams, datadir, minerAddress }, logger: createLogger('silent'), ...extra });
  controls.push(c);
  return c;
}

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  datadir = mkdtempSync(join(tmpdir(), 'weft-gpu-mining-'));
  chain = await openChain({ params: regtestParams, store: createMemoryStore(), clock: systemClock });
});

afterAll(async () => {
  for (const c of controls) await c.close();
  rmSync(datadir, { recursive: true, force: true });
});

describe('GPU mining requests that cannot be met', () => {
  it('answers -40005 with the driver search\'s reason when no adapter exists, and starts no CPU mining', async () => {
    const saved = process.env['VK_ICD_FILENAMES'];
    process.env['VK_ICD_FILENAMES'] = '/nonexistent/weft-no-gpu-icd.json'; // Dawn then finds no Vulkan device
    const c = control();
    try {
      const failure = c.start({ threads: 1, gpuMining: true, gpuDevices: [] });
      await expect(failure).rejects.toBeInstanceOf(MiningError);
      await expect(failure).rejects.toMatchObject({ code: ErrorCode.MiningError, message: expect.stringMatching(/GPU mining unavailable: no WebGPU adapter/) });
    } finally {
      if (saved === undefined) delete process.env['VK_ICD_FILENAMES'];
      else process.env['VK_ICD_FILENAMES'] = saved;
    }
    expect(c.isRunning()).toBe(false);
    expect(c.info()).toMatchObject({ running: false, backends: [] });
  });

  it('opens no CPU backend when the GPU opener fails', async () => {
    let cpuOpened = 0;
    const c = control({
      openGpuBackends: async () => { throw new MiningError('adapter 0 lost'); },
      openCpuBackend: async () => { cpuOpened++; throw new Error('must not be reached'); },
    });
    await expect(c.start({ threads: 2, gpuMining: true, gpuDevices: [0] })).rejects.toMatchObject({ code: ErrorCode.MiningError, message: 'adapter 0 lost' });
    expect(cpuOpened).toBe(0);
    expect(c.isRunning()).toBe(false);
  });

  it('refuses a gpu_devices index Dawn does not list, naming the adapters it does', async () => {
    const names = await listDawnAdapters();
    expect(names.length).toBeGreaterThan(0);
    const c = control();
    await expect(c.start({ threads: 0, gpuMining: true, gpuDevices: [names.length] }))
      .rejects.toMatchObject({ code: ErrorCode.MiningError, message: expect.stringContaining(`no adapter ${names.length}; Dawn lists ${names.length}: 0 '${names[0]}'`) });
    await expect(c.start({ threads: 0, gpuMining: true, gpuDevices: [0, 0] })).rejects.toMatchObject({ code: ErrorCode.MiningError });
    await expect(c.start({ threads: 1, gpuMining: false, gpuDevices: [0] })).rejects.toMatchObject({ code: ErrorCode.MiningError });
    expect(c.isRunning()).toBe(false);
  });
});

describe('GPU mining on the adapter Dawn opens', () => {
  it('mines blocks flagged gpu_mining = true on gpu_devices [0], and the statistics split them as GPU blocks', async () => {
    const c = control();
    const events: MiningEvent[] = [];
    c.onEvent((e) => events.push(e));
    const started = await c.start({ threads: 0, gpuMining: true, gpuDevices: [0] });
    const backends = started.backends as { kind: string; name: string; device_index: number; adapter: string }[];
    expect(backends).toEqual([expect.objectContaining({ kind: 'gpu', name: 'webgpu', device_index: 0 })]);
    expect(backends[0]!.adapter).toMatch(/\S/);

    await until(() => events.filter((e) => e.type === 'block_found').length >= 3, 60_000, 'three GPU-found blocks');
    await c.stop();
    const found = events.filter((e): e is Extract<MiningEvent, { type: 'block_found' }> => e.type === 'block_found');
    for (const event of found) {
      const block = chain.get(event.block_hash.slice(2))!;
      expect(block.header.gpuMining).toBe(true);
      expect(event.gpu_mining).toBe(true);
      expect(toHex(block.header.miner)).toBe(toHex(minerBytes));
    }
    const info = c.info();
    expect(info.blocks_found).toEqual({ total: found.length, gpu: found.length, cpu: 0 });
    const stats = c.stats('1h');
    expect(stats.blocks_found).toEqual({ total: found.length, gpu: found.length, cpu: 0 });
    expect(stats.gpu_mining_ratio).toBe(1);
    const split = stats.hash_rate_split as { gpu: { hashes_per_second: number }; cpu: { hashes_per_second: number } };
    expect(split.gpu.hashes_per_second).toBeGreaterThan(0);
    expect(split.cpu.hashes_per_second).toBe(0);
  });
});
