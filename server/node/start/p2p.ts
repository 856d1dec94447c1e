/**
 * The node's p2p stage (server/p2p/start-p2p.ts): transactions relay through the pool (peers' go through admission,
 * admitted ones are announced, docs/p2p.md); bans and invalid blocks feed the alert monitor once it exists; a joined
 * chain is watched by the join guard (src/p2p/join-guard.ts), whose verdict re-joins (rejoin.ts).
 */
import type { BlockRuleError } from '../../../src/chain/errors.ts';
import { createJoinGuard, type JoinGuard } from '../../../src/p2p/join-guard.ts';
import { mempoolRelayPort } from '../../../src/p2p/mempool-relay-port.ts';
import { systemClock } from '../../../src/util/clock.ts';
import { nodeVersion } from '../../http/start-api.ts';
import { startP2p, type RunningP2p } from '../../p2p/start-p2p.ts';
import type { JoinHooks } from '../rejoin.ts';
import type { ChainParts, LateParts, ServiceParts } from './node-state.ts';

export async function startNodeP2p(parts: ChainParts & ServiceParts, late: LateParts, hooks: JoinHooks): Promise<RunningP2p> {
  const { config, chain, store, logger, mempool } = parts;
  const guard = joinGuardOf(parts, late, hooks);
  const p2p = await startP2p({
    config,
    chain,
    store,
    logger,
    version: nodeVersion,
    txPort: mempoolRelayPort(mempool.pool, mempool.onRebroadcast),
    onMisbehaviour: (event) => (event.kind === 'banned' ? late.alerts?.monitor.notePeerBanned(event.peer, event.reason) : late.alerts?.monitor.noteInvalidBlock()),
    ...(guard ? { blockRefused: (peer: string, error: BlockRuleError) => guard.blockRefused(peer, error) } : {}),
  });
  late.p2p = p2p;
  return p2p;
}

/** Only a joined chain has a join to doubt; the guard asks the p2p node lazily (it is built after the guard). */
function joinGuardOf(parts: ChainParts, late: LateParts, hooks: JoinHooks): JoinGuard | undefined {
  const { chain, joined, logger } = parts;
  if (chain.joinedAt === undefined) return undefined;
  return createJoinGuard({
    chain, joinedFrom: joined?.peer, ...(joined ? { joinedProof: joined.proof } : {}), node: () => late.p2p!.node,
    nowMs: () => systemClock.nowMs(), log: logger, onRejoin: hooks.onVerdict,
  });
}
