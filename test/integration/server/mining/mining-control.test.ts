// The mining control end to end on a real regtest node (LMDB in a temp dir, the Wasm worker pool): start → blocks
// committed with the right miner address and gpu flag → events from those real blocks → statistics reflect them
// → stop. GPU requests are in test/unit/server/mining/mining-gpu-control.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeAddress, standardAddress } from '../../../../src/crypto/address.ts';
import { generatePrivateKey, publicKeyFromPrivate } from '../../../../src/crypto/keys.ts';
import type { MiningEvent } from '../../../../src/mining/control.ts';
import { ErrorCode } from '../../../../src/errors.ts';
import { blockSubsidyUnits } from '../../../../src/consensus/emission.ts';
import { unitsToCoins } from '../../../../src/crypto/amount.ts';
import { toHex } from '../../../../src/util/bytes.ts';
import type { RunningNode } from '../../../../server/node/start-node.ts';
import { makeBlock, testMiner } from '../../../helpers/chain-fixtures.ts';
import { startRpcTestNode, type RpcTestNode } from '../../../helpers/rpc-node.ts';

let datadir: string;
let testNode: RpcTestNode;
let node: RunningNode;
const minerKey = publicKeyFromPrivate(generatePrivateKey((n) => crypto.getRandomValues(new Uint8Array(n))));
const minerBytes = standardAddress(minerKey);
const minerAddress = encodeAddress('rweft', minerBytes);
const events: MiningEvent[] = [];

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  datadir = mkdtempSync(join(tmpdir(), 'weft-mining-'));
  // The shared set-up (test/helpers/rpc-node.ts): every port 0, the node's own ports; the datadir is ours to restart on.
  testNode = await startRpcTestNode([], false, datadir);
  node = testNode.node;
  node.mining.onEvent((event) => events.push(event));
  // Two blocks by someone else first (regtest genesis is at the pow limit, so the JS grinder finds them at once),
  // stamped now so that they fall in the statistics' periods.
  for (let i = 0; i < 2; i++) await node.chain.addBlock(makeBlock(node.chain, { timestampMs: Date.now() - 2_000 + i }));
});

afterAll(async () => {
  await testNode?.close();
  rmSync(datadir, { recursive: true, force: true });
});

describe('mining control on a regtest node', () => {
  it('is idle until asked and refuses requests it cannot meet with -40005 / -40002', async () => {
    expect(node.mining.info()).toMatchObject({ running: false, threads: 0, backends: [] });
    await expect(node.mining.start({ threads: 0, gpuMining: false, gpuDevices: [] })).rejects.toMatchObject({ code: ErrorCode.MiningError });
    await expect(node.mining.start({ threads: 1.5, gpuMining: false, gpuDevices: [] })).rejects.toMatchObject({ code: ErrorCode.MiningError });
    await expect(node.mining.start({ threads: 1, gpuMining: false, gpuDevices: [], minerAddress: 'weft1notanaddress' }))
      .rejects.toMatchObject({ code: ErrorCode.InvalidAddress });
    expect(node.mining.isRunning()).toBe(false);
  });

  it('mines blocks to the requested address with gpu_mining false, fires events from them, and stops', async () => {
    const started = await node.mining.start({ threads: 1, gpuMining: false, gpuDevices: [], minerAddress });
    expect(started).toMatchObject({ running: true, miner_address: minerAddress, threads: 1, gpu_mining: false });
    expect(started.backends).toEqual([expect.objectContaining({ kind: 'cpu', threads: 1, name: expect.stringMatching(/^wasm-/) })]);

    await until(() => events.filter((e) => e.type === 'block_found').length >= 4, 30_000, 'four block_found events');
    await until(() => events.some((e) => e.type === 'difficulty_adjustment'), 30_000, 'a difficulty_adjustment event');
    const found = events.filter((e): e is Extract<MiningEvent, { type: 'block_found' }> => e.type === 'block_found');
    for (const event of found) {
      const block = node.chain.get(event.block_hash.slice(2));
      expect(block, 'a block_found event names a committed block').toBeDefined();
      expect(toHex(block!.header.miner)).toBe(toHex(minerBytes));
      expect(block!.header.gpuMining).toBe(false);
      expect(event.gpu_mining).toBe(false);
      expect(event.height).toBe(block!.height);
    }
    // Regtest starts at the pow limit, so the DAA raises the difficulty as the pool finds blocks far faster than 1/s.
    const adjustments = events.filter((e): e is Extract<MiningEvent, { type: 'difficulty_adjustment' }> => e.type === 'difficulty_adjustment');
    expect(adjustments.length).toBeGreaterThan(0);
    for (const a of adjustments) {
      expect(a.new_difficulty).not.toBe(a.old_difficulty);
      const tipBits = node.chain.get(a.block_hash.slice(2))!.header.bits;
      expect(tipBits).toBeGreaterThan(0);
    }
    // Rewards come from the ledger once a chain block merges the block: the subsidy of its DAA score (no fees here).
    await until(() => events.some((e) => e.type === 'mining_reward'), 30_000, 'a mining_reward event');
    for (const r of events.filter((e): e is Extract<MiningEvent, { type: 'mining_reward' }> => e.type === 'mining_reward')) {
      const block = node.chain.get(r.block_hash.slice(2))!;
      expect(r.reward_amount).toBe(unitsToCoins(blockSubsidyUnits(block.header.daaScore)));
      expect(r.miner).toBe(minerAddress);
      expect(events.some((e) => e.type === 'block_found' && e.block_hash === r.block_hash)).toBe(true);
    }

    await new Promise((resolve) => setTimeout(resolve, 1_100)); // one hash-counter sample at least
    const info = node.mining.info();
    expect(info.blocks_found).toMatchObject({ gpu: 0 });
    expect((info.blocks_found as { total: number }).total).toBeGreaterThanOrEqual(found.length);
    expect(info.local_hash_rate).toMatchObject({ source: 'measured' });
    expect((info.local_hash_rate as { hashes_per_second: number }).hashes_per_second).toBeGreaterThan(0);
    expect(info.hash_rate).toMatch(/^\d+(\.\d+)? [kMGTPE]?H\/s$/);
    expect(info.network_hash_rate).toMatchObject({ source: 'estimated' });
    expect(info.template_age_ms).toEqual(expect.any(Number));
    expect(info.difficulty).toBeGreaterThan(0);

    const stopped = await node.mining.stop();
    expect(stopped).toMatchObject({ stopped: true, running: false });
    const count = node.chain.blockCount();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(node.chain.blockCount()).toBe(count);
  });

  it('statistics count this node\'s blocks apart from others, from chain data', () => {
    const stats = node.mining.stats('1h');
    const found = (node.mining.info().blocks_found as { total: number }).total;
    expect(stats).toMatchObject({ period: '1h', rewards: { source: 'ledger' }, miner_addresses: [minerAddress] });
    const rewarded = events.filter((e): e is Extract<MiningEvent, { type: 'mining_reward' }> => e.type === 'mining_reward');
    expect((stats.rewards as { total: number }).total).toBeCloseTo(rewarded.reduce((sum, r) => sum + r.reward_amount, 0), 8);
    const blocks = stats.blocks as { total: number; gpu: number; cpu: number };
    const blocksFound = stats.blocks_found as { total: number; gpu: number; cpu: number };
    expect(blocksFound).toEqual({ total: found, gpu: 0, cpu: found });
    expect(blocks.total).toBe(node.chain.blockCount() - 1); // every block but genesis, the two foreign ones included
    expect(stats.active_miners).toBe(2); // testMiner and ours
    expect(stats.gpu_mining_ratio).toBe(0);
    expect(stats.average_block_time_seconds).toEqual(expect.any(Number));
    const difficulty = stats.difficulty as { current: number; min: number; max: number };
    expect(difficulty.max).toBeGreaterThan(difficulty.min);
    expect(stats.network_hash_rate).toMatchObject({ source: 'estimated' });
    expect(stats.local_hash_rate).toMatchObject({ source: 'measured' });
    const series = stats.hash_rate_series as { found: number; blocks: number; local_hashes_per_second: number }[];
    expect(series).toHaveLength(60);
    expect(series.reduce((n, p) => n + p.found, 0)).toBe(found);
    expect(series.reduce((n, p) => n + p.blocks, 0)).toBe(blocks.total);
    expect(series.some((p) => p.local_hashes_per_second > 0)).toBe(true);
    expect(toHex(testMiner)).not.toBe(toHex(minerBytes));
  });

  it('statistics are rebuilt from the chain when the node restarts', async () => {
    const before = node.mining.stats('24h');
    await testNode.close();
    testNode = await startRpcTestNode(['--miner-address', minerAddress], false, datadir);
    node = testNode.node;
    const after = node.mining.stats('24h');
    expect(after.blocks).toEqual(before.blocks);
    expect(after.blocks_found).toEqual(before.blocks_found); // the configured address is this node's
    expect(after.active_miners).toBe(before.active_miners);
  });
});
