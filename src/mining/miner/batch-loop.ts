/**
 * The batch-driven loop (src/mining/miner.ts): nonce batches sized from the measured rate to take ~batchMs, so stale
 * work is abandoned within about one batch; a template is dropped when the chain moved, its inputs changed or it
 * aged out.
 */
import type { BlockTemplate } from '../template.ts';
import { buildTemplate, pauseAfterError, type MinerState } from './state.ts';

const batchNoncesMin = 256;
const batchNoncesMax = 1 << 26;
/**
 * A backend that answers on the microtask queue (the JS reference) would starve timers and I/O; the loop yields a
 * macrotask at least this often. Worker and GPU backends answer through macrotasks anyway, so this costs them
 * one ~1 ms timer per interval at most (≤ 0.5%).
 */
const loopYieldIntervalMs = 200;
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

function stale(st: MinerState, template: BlockTemplate, builtAtMs: number, version: number): boolean {
  const age = st.clock.nowMs() - builtAtMs;
  return st.chain.blockCount() !== template.chainVersion || age >= st.templateRefreshMs || (version !== st.inputsVersion && age >= st.mempoolRefreshMs);
}

/** Grinds one template until it wins, goes stale or the loop stops. */
async function mineOneTemplate(st: MinerState): Promise<void> {
  const { clock, backend } = st;
  const builtAtMs = clock.nowMs();
  const version = st.inputsVersion;
  const template = buildTemplate(st, builtAtMs);
  st.templateBuiltAtMs = builtAtMs;
  st.templatesBuilt++;
  let nonce = st.randomNonce();
  while (st.running && !stale(st, template, builtAtMs, version)) {
    if (clock.nowMs() - st.lastYieldMs >= loopYieldIntervalMs) {
      await yieldToEventLoop();
      st.lastYieldMs = clock.nowMs();
      if (!st.running || stale(st, template, builtAtMs, version)) break;
    }
    const began = clock.nowMs();
    const result = await backend.search({ prePowHash: template.prePowHash, target: template.target, nonceStart: nonce, nonceCount: st.batchNonces });
    st.hashes += result.hashes;
    const tookMs = Math.max(1, clock.nowMs() - began);
    st.batchNonces = Math.min(batchNoncesMax, Math.max(batchNoncesMin, Math.round((st.batchNonces * st.batchMs) / tookMs)));
    if (result.nonce !== null) {
      st.blocksFound++;
      await st.submit({ header: { ...template.header, nonce: result.nonce }, transactions: template.transactions });
      return;
    }
    nonce = (nonce + BigInt(result.hashes)) & 0xffff_ffff_ffff_ffffn;
  }
  if (st.running) st.templatesDropped++;
}

export async function runBatchLoop(st: MinerState): Promise<void> {
  while (st.running) {
    try {
      await mineOneTemplate(st);
    } catch (error) {
      await pauseAfterError(st, error);
    }
  }
}
