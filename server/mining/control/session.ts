/**
 * Starting and stopping a mining session. A request is checked before anything stops or opens; a GPU request that
 * cannot be met fails with MiningError (-40005) and nothing starts: never a CPU fallback presented as GPU.
 */
import { decodeAddress, encodeAddress } from '../../../src/crypto/address.ts';
import type { StartMiningRequest } from '../../../src/mining/control.ts';
import { MiningError } from '../../../src/mining/errors.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { wasmPoolThreadsMax } from '../wasm-pool.ts';
import { openEngines } from './engines.ts';
import { rewardAddress } from './reward-address.ts';
import { sampleEngines } from './sample.ts';
import type { MiningControlState, Session } from './state.ts';
import { miningInfo } from './views.ts';

function checkRequest(request: StartMiningRequest): void {
  const { threads, gpuMining, gpuDevices } = request;
  if (!Number.isInteger(threads) || threads < 0 || threads > wasmPoolThreadsMax) {
    throw new MiningError(`threads: expected an integer in 0..${wasmPoolThreadsMax}, got ${String(threads)}`);
  }
  if (threads === 0 && !gpuMining) throw new MiningError('nothing to mine with: threads is 0 and gpu_mining is false');
  if (!gpuMining && gpuDevices.length > 0) throw new MiningError('gpu_devices given but gpu_mining is false');
}

/** Stops the running session's loops, takes a last sample and closes its backends; null when none ran. */
async function endSession(state: MiningControlState): Promise<Session | null> {
  const ended = state.session;
  if (ended === null) return null;
  await Promise.all(ended.engines.map((e) => e.miner.stop()));
  sampleEngines(state);
  state.session = null;
  await Promise.all(ended.engines.map((e) => e.close()));
  state.logger.info({ blocks: ended.engines.reduce((n, e) => n + e.miner.stats().blocksFound, 0) }, 'mining stopped');
  return ended;
}

/** start_mining: replaces any running session with one for `request`; returns get_mining_info's result. */
export async function startMining(state: MiningControlState, request: StartMiningRequest): Promise<Record<string, unknown>> {
  const { params, clock } = state;
  checkRequest(request);
  const address = request.minerAddress === undefined
    ? rewardAddress(state)
    : { bytes: decodeAddress(request.minerAddress, params.hrp), text: request.minerAddress };
  await endSession(state);
  const engines = await openEngines(state, request, address.bytes);
  state.ownMiners.set(toHex(address.bytes), encodeAddress(params.hrp, address.bytes));
  const session: Session = { address, threads: request.threads, gpuMining: request.gpuMining, gpuDevices: [...request.gpuDevices], engines, startedAtMs: clock.nowMs() };
  state.session = session;
  state.lastSession = session;
  for (const e of engines) e.miner.start();
  state.logger.info(
    { address: address.text, threads: request.threads, backends: engines.map((e) => (e.kind === 'gpu' ? `${e.backend.name}#${e.deviceIndex} ${e.adapter}` : `${e.backend.name}×${request.threads}`)) },
    'mining started',
  );
  return miningInfo(state);
}

/** stop_mining: whether a session was running, and get_mining_info's result after it stopped. */
export async function stopMining(state: MiningControlState): Promise<Record<string, unknown>> {
  const ended = await endSession(state);
  return { stopped: ended !== null, ...miningInfo(state) };
}

/** Stops mining, the sampler and the chain subscription. */
export async function closeMiningControl(state: MiningControlState): Promise<void> {
  clearInterval(state.sampler);
  state.unsubscribe();
  await endSession(state);
}

/** The template inputs changed (the mempool): every running loop drops its template. */
export function invalidateTemplates(state: MiningControlState): void {
  for (const e of state.session?.engines ?? []) e.miner.invalidate();
}
