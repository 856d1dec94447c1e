/**
 * The consensus parameters a tab verifies with. They are built in for every network; only regtest's depth rules
 * and header version are set per node (src/consensus/regtest-overrides.ts), so on regtest the tab takes them from
 * its node's `get_info` — a test network whose node the tester runs. Elsewhere a node cannot change what the tab
 * checks: a lying node's numbers are ignored.
 */
import { getNetworkParams, type NetworkParams } from '../../src/consensus/params.ts';
import { regtestParamsWith } from '../../src/consensus/regtest-overrides.ts';
import type { GetInfoReturnType } from '../../packages/client/src/index.ts';

export type NodeConsensusInfo = Pick<GetInfoReturnType, 'network_id'> & Partial<Pick<GetInfoReturnType, 'consensus'>>;

export function networkParamsOf(info: NodeConsensusInfo): NetworkParams {
  const c = info.consensus;
  if (info.network_id !== 'regtest' || c === undefined) return getNetworkParams(info.network_id);
  return regtestParamsWith({
    headerVersion: c.header_version as 1 | 2, finalityDepth: c.finality_depth, mergeDepth: c.merge_depth, pruningDepth: c.pruning_depth,
  });
}
