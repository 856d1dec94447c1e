/** Opens the engines of a mining session: one miner loop per GPU adapter asked for, and one on the Wasm pool. */
import type { StartMiningRequest } from '../../../src/mining/control.ts';
import { MiningError } from '../../../src/mining/errors.ts';
import { createHashRateMeter } from '../../../src/mining/hash-rate.ts';
import type { PowBackend } from '../../../src/mining/job.ts';
import { createMiner } from '../../../src/mining/miner.ts';
import { toHash0x } from '../../../src/util/bytes.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import type { Block } from '../../../src/codec/block.ts';
import type { Engine, MiningControlState } from './state.ts';

/** Every found block is announced as found (mining_events) before it goes to the node's intake. */
function submitFound(state: MiningControlState, block: Block): Promise<unknown> {
  state.events.noteFound(toHash0x(blockHash(block.header)));
  return state.submitToChain(block);
}

function makeEngine(
  state: MiningControlState,
  kind: 'cpu' | 'gpu',
  backend: PowBackend,
  address: Uint8Array,
  close: () => Promise<void>,
  gpu?: { index: number; adapter: string },
): Engine {
  const { chain, clock, logger } = state;
  const miner = createMiner({
    chain, backend, clock, miner: address, submit: (block) => submitFound(state, block),
    randomNonce: state.randomNonce,
    ...(state.buildTemplate === undefined ? {} : { buildTemplate: state.buildTemplate }),
    onError: (error) => logger.error({ err: error, backend: backend.name }, 'miner error'),
  });
  const engine: Engine = { kind, backend, miner, meter: createHashRateMeter(), lastTotal: 0, close, ...(gpu ? { deviceIndex: gpu.index, adapter: gpu.adapter } : {}) };
  engine.meter.observe(clock.nowMs(), 0);
  return engine;
}

/** GPU engines first, then the CPU one; if any backend fails to open, those already open are closed again. */
export async function openEngines(state: MiningControlState, request: StartMiningRequest, address: Uint8Array): Promise<Engine[]> {
  const engines: Engine[] = [];
  try {
    if (request.gpuMining) {
      const opened = await state.openGpuBackends(request.gpuDevices);
      for (const g of opened) engines.push(makeEngine(state, 'gpu', g.backend, address, g.close, { index: g.index, adapter: g.adapter }));
    }
    if (request.threads > 0) {
      const cpu = await state.openCpuBackend(request.threads);
      engines.push(makeEngine(state, 'cpu', cpu, address, () => cpu.close()));
    }
  } catch (error) {
    await Promise.all(engines.map((e) => e.close()));
    throw error instanceof MiningError ? error : new MiningError(`mining backend failed to start: ${String(error)}`, { cause: error });
  }
  return engines;
}
