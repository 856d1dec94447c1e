/**
 * A joined node that finds its join wrong joins again on its own (docs/security.md "Joining the network",
 * docs/pruning-proof.md "After a join: heavier proofs and poisoned joins"). The join guard (src/p2p/join-guard.ts)
 * gives the verdict — a heavier proof appeared, or the peer that served the join lied — and this module acts on it:
 *
 * 1. it logs the verdict as an error (`event: 'join_wrong'`), naming the reason and the peers involved;
 * 2. a poisoned join's server is dropped with a protocol violation (banned unless it is an addnode peer) and left out
 *    of every later join of this process;
 * 3. every service stops (mining, the pool, p2p, the API, A2A, alerts: all of them read the chain), in the order
 *    close() stops them, so the store is consistent when it goes;
 * 4. the chain store (`<datadir>/chain`, the LMDB environment holding the joined chain, its state, the pool's journal
 *    and the A2A tasks) is wiped;
 * 5. the node starts again on the same ports (those it bound, so clients and peers find it where it was): the empty
 *    store makes it join by proof from its peers, the path a fresh node takes (fast-join.ts, join-from-peers.ts:
 *    every peer asked, the heaviest proof kept), and /health answers "joining" on the RPC port meanwhile.
 *
 * The handle startNode returned stays valid across re-joins: its fields read the instance now running.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RejoinVerdict } from '../../src/p2p/join-guard.ts';
import { ProtocolViolationError } from '../../src/p2p/protocol-errors.ts';
import { toHash0x } from '../../src/util/bytes.ts';
import type { NodeConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import type { RunningNode } from './running-node.ts';

/** What one start of the node is told about joining: whom to leave out, and where the guard's verdict goes. */
export interface JoinHooks {
  /** Peers (hex NodeIDs) the join does not ask. */
  readonly exclude: ReadonlySet<string>;
  /** The guard found the joined state wrong. */
  readonly onVerdict: (verdict: RejoinVerdict) => void;
}

/** Starts one instance of the node on `config` (start-node.ts). */
export type StartInstance = (config: NodeConfig, hooks: JoinHooks) => Promise<RunningNode>;

/** The state of a node that may re-join: the instance running now and what the next start needs. */
interface RejoinState {
  readonly logger: Logger;
  readonly startInstance: StartInstance;
  config: NodeConfig;
  /** The running instance; undefined only while the first one starts. */
  current: RunningNode | undefined;
  /** Counts starts: a verdict from an instance that is no longer the newest is stale. */
  generation: number;
  /** True from a start's call until it returns: a verdict meanwhile waits in `queued`. */
  starting: boolean;
  queued: RejoinVerdict | undefined;
  /** Peers that served a poisoned join: never asked again by this process. */
  readonly excluded: Set<string>;
  rejoining: Promise<void> | undefined;
  closed: boolean;
}

/** The chain store's directory under the datadir: what start-node.ts opens and a re-join wipes. */
export const chainStoreDir = (datadir: string): string => join(datadir, 'chain');

/** Starts the node and keeps it on a correct chain: on a guard verdict it stops, wipes its chain and joins again. */
export async function startRejoiningNode(config: NodeConfig, logger: Logger, startInstance: StartInstance): Promise<RunningNode> {
  const state: RejoinState = { logger, startInstance, config, current: undefined, generation: 0, starting: false, queued: undefined, excluded: new Set(), rejoining: undefined, closed: false };
  await startNewest(state);
  return liveHandle(state);
}

/** Starts an instance as the newest; a verdict it gave while it started is acted on once it runs. */
async function startNewest(state: RejoinState): Promise<void> {
  const generation = ++state.generation;
  state.starting = true;
  const hooks: JoinHooks = { exclude: state.excluded, onVerdict: (verdict) => verdictFrom(state, generation, verdict) };
  try {
    state.current = await state.startInstance(state.config, hooks);
  } finally {
    state.starting = false;
  }
  const queued = state.queued;
  state.queued = undefined;
  if (queued !== undefined) verdictFrom(state, generation, queued);
}

function verdictFrom(state: RejoinState, generation: number, verdict: RejoinVerdict): void {
  if (state.closed || generation !== state.generation) return;
  if (state.starting) {
    state.queued ??= verdict;
    return;
  }
  if (state.rejoining !== undefined) return;
  const current = state.current!;
  const servedBy = verdict.reason === 'poisoned' ? verdict.servedBy : undefined;
  state.logger.error(
    {
      event: 'join_wrong',
      reason: verdict.reason,
      ...(verdict.reason === 'poisoned' ? { servedBy: verdict.servedBy, reportedBy: verdict.reportedBy } : { heavierFrom: verdict.peer }),
      joinedAt: current.chain.joinedAt ? toHash0x(current.chain.joinedAt.hash) : undefined,
    },
    verdict.reason === 'poisoned'
      ? 'the joined state is wrong (the peer that served the join lied): stopping, wiping the chain store and joining again by proof without that peer'
      : 'a peer proves a heavier chain than the one joined: stopping, wiping the chain store and joining again by proof',
  );
  if (servedBy !== undefined) {
    state.excluded.add(servedBy);
    current.p2p.node.disconnectPeer(servedBy, new ProtocolViolationError('served a poisoned join: its acceptance record differs from the honest peers\''));
  }
  state.rejoining = rejoin(state, current)
    .catch((error: unknown) => state.logger.fatal({ event: 'rejoin_failed', err: error }, 'the re-join failed: the node is stopped; restart it to join again'))
    .finally(() => (state.rejoining = undefined));
}

async function rejoin(state: RejoinState, old: RunningNode): Promise<void> {
  state.config = pinnedPorts(state.config, old);
  await old.close();
  rmSync(chainStoreDir(state.config.datadir), { recursive: true, force: true });
  state.logger.info({ event: 'chain_store_wiped', dir: chainStoreDir(state.config.datadir) }, 'chain store wiped for the re-join');
  if (state.closed) return;
  await startNewest(state);
  const joinedAt = state.current!.chain.joinedAt;
  state.logger.info({ event: 'rejoined', joinedAt: joinedAt ? toHash0x(joinedAt.hash) : undefined, excluded: [...state.excluded].map((p) => p.slice(0, 16)) }, 'joined again');
  if (state.closed) await state.current!.close();
}

/** The ports the running instance bound (config 0 = any): the next start listens on the same ones. */
function pinnedPorts(config: NodeConfig, node: RunningNode): NodeConfig {
  return {
    ...config,
    rpcPort: node.httpPort,
    wsPort: node.api.wsPort,
    p2pPort: node.p2p.port,
    ...(node.api.httpsPort !== undefined ? { httpsPort: node.api.httpsPort } : {}),
    ...(node.api.grpcPort !== undefined ? { grpcPort: node.api.grpcPort } : {}),
  };
}

async function closeRejoining(state: RejoinState): Promise<void> {
  state.closed = true;
  await state.rejoining;
  await state.current!.close();
}

/** The handle callers keep: each field reads the instance running now. */
function liveHandle(state: RejoinState): RunningNode {
  const now = (): RunningNode => state.current!;
  return {
    get chain() { return now().chain; },
    get ledger() { return now().ledger; },
    get mining() { return now().mining; },
    get httpPort() { return now().httpPort; },
    get api() { return now().api; },
    get p2p() { return now().p2p; },
    get access() { return now().access; },
    get apiCookiePath() { return now().apiCookiePath; },
    get alerts() { return now().alerts; },
    close: () => closeRejoining(state),
  };
}
