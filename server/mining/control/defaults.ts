/** The mining control's default dependencies: the chain as block intake, the Wasm pool, Dawn, random nonces. */
import type { Block } from '../../../src/codec/block.ts';
import type { Chain } from '../../../src/chain/chain.ts';
import { BlockRuleError } from '../../../src/chain/errors.ts';
import type { Logger } from '../../logger.ts';
import type { GpuBackendOpener } from '../gpu-adapters.ts';

/** chain.addBlock, a rule violation logged (a miner bug, not a crash). */
export async function submitToChain(chain: Chain, logger: Logger, block: Block): Promise<unknown> {
  try {
    return await chain.addBlock(block);
  } catch (error) {
    if (!(error instanceof BlockRuleError)) throw error;
    logger.warn({ rule: error.rule, err: error.message }, 'mined block rejected');
    return undefined;
  }
}

/** Dawn (dawn.node) is loaded only when GPU mining is asked for: a CPU-only node never initialises Vulkan. */
export const openDawnBackends: GpuBackendOpener = async (devices) => (await import('../gpu-adapters.ts')).openNodeGpuBackends(devices);

export function randomU64(): bigint {
  return new DataView(crypto.getRandomValues(new Uint8Array(8)).buffer).getBigUint64(0);
}
