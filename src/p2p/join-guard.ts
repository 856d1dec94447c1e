/**
 * What a joined node watches for after its join (docs/pruning-proof.md "After a join: heavier proofs and poisoned
 * joins"), and when it re-joins:
 *
 * - **A heavier proof appears** (Kaspa's rule). A block whose selected chain misses our pruning point is refused with
 *   `context.pruning-point.violated` (ban score 0: the peer may be on another chain, not lying). Its sender is asked for
 *   its proof (once per peer per joinGuardProofCooldownMs); a proof that fails its checks is the peer's fault (it is
 *   dropped with a ban score); one that beats ours by compareProofs — ours built from the joined chain, weighing its
 *   selected tip's blue work — is a reason to re-join (`heavier-proof`).
 * - **The join was poisoned.** Right after a join (no block above the point accepted yet), an honest block refused
 *   with `body.state-root.mismatch` may mean our starting state is wrong, not the block: the reporter is spared (no ban
 *   score), and asked for its trusted data at our point; when its record's running totals differ from those we took
 *   (the one thing a version 1 join takes unproven), the peer that served our join lied: it is banned and the node
 *   re-joins from the others (`poisoned`). When they agree the block is bad after all and its sender is dropped with
 *   the block's ban score, as any invalid block's.
 *
 * Pure and isomorphic; the host acts on the verdict (re-joins into a fresh store, src/p2p/join-from-peers.ts).
 */
import type { Chain } from '../chain/chain.ts';
import type { BlockRuleError } from '../chain/errors.ts';
import { compareProofs } from '../pruning-proof/compare-proofs.ts';
import { buildPruningProof } from '../pruning-proof/build-proof.ts';
import { proofParamsOf } from '../pruning-proof/level-dag.ts';
import { checkProofDifficulty } from '../pruning-proof/proof-difficulty.ts';
import { verifyPruningProof, type VerifiedProof } from '../pruning-proof/verify-proof.ts';
import { decodeAcceptanceRecord, type AcceptanceTotals } from '../state/acceptance-record.ts';
import { sameTotals } from '../state/consensus-totals.ts';
import { fromHex } from '../util/bytes.ts';
import { joinPeerFault } from './join-from-peers.ts';
import type { P2pLogger } from './logger.ts';
import type { P2pNode } from './p2p-node.ts';
import { InvalidBlockRelayedError } from './protocol-errors.ts';

/** A peer's proof is asked for at most once in this long (a peer on another chain sends many such blocks). */
const joinGuardProofCooldownMs = 60_000;
/**
 * A poison check that could not be made (the reporter's answer timed out, it was busy with another request, it left)
 * is tried again on a later refusal of the suspected block's descendants, at most this often: the block itself is
 * remembered as invalid, so its state-root refusal never comes again to start a check.
 */
const joinGuardPoisonRetryMs = 2_000;

export type RejoinVerdict =
  | { readonly reason: 'heavier-proof'; readonly peer: string; readonly proof: VerifiedProof }
  | { readonly reason: 'poisoned'; readonly servedBy: string | undefined; readonly reportedBy: string };

export interface JoinGuardOptions {
  /** The joined chain. */
  readonly chain: Chain;
  /** The peer whose trusted data and state the join took (hex NodeID), when known. */
  readonly joinedFrom: string | undefined;
  /** The proof the join verified (the defender while the chain's pruning point is the joined one). */
  readonly joinedProof?: VerifiedProof;
  /** Asked lazily: the node is built after the guard it takes as an option. */
  readonly node: () => P2pNode;
  readonly nowMs: () => number;
  readonly log: P2pLogger;
  /** Told once per verdict; the host re-joins (excluding `servedBy` for a poisoned join). */
  readonly onRejoin: (verdict: RejoinVerdict) => void;
}

export interface JoinGuard {
  /** A block from `peer` was refused with `error`: true when the sender is spared its ban score (the guard judges it). */
  blockRefused(peer: string, error: BlockRuleError): boolean;
  /** Settles once the checks under way are done (tests). */
  idle(): Promise<void>;
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export function createJoinGuard(options: JoinGuardOptions): JoinGuard {
  const { chain, log } = options;
  const proofParams = proofParamsOf(chain.params);
  const askedAt = new Map<string, number>();
  const pending = new Set<Promise<void>>();
  let decided = false;
  let poisonCheck: string | undefined;
  /** A state-root refusal right after the join was spared: until it is judged, its descendants are spared too. */
  let suspected: BlockRuleError | undefined;
  /** When the last poison check could not be made (a retry waits joinGuardPoisonRetryMs after it). */
  let uncheckedAt: number | undefined;

  const track = (task: Promise<void>): void => {
    pending.add(task);
    void task.finally(() => pending.delete(task));
  };
  const decide = (verdict: RejoinVerdict): void => {
    if (decided) return;
    decided = true;
    log.warn({ event: 'rejoin_needed', reason: verdict.reason, peer: 'peer' in verdict ? verdict.peer.slice(0, 16) : verdict.servedBy?.slice(0, 16) }, 're-joining');
    options.onRejoin(verdict);
  };
  /** Ours: built from the chain once its point moved past the join's; until then the proof the join verified. */
  const ourProof = (): VerifiedProof => {
    const point = chain.pruning()?.pruningPoint ?? chain.joinedAt!;
    if (options.joinedProof !== undefined && point.id === options.joinedProof.pruningPointId) return options.joinedProof;
    return verifyPruningProof(buildPruningProof({ header: (id) => chain.get(id)?.header }, point.id, proofParams), proofParams);
  };

  const checkHeavier = async (peer: string): Promise<void> => {
    try {
      const { proof } = await options.node().fetchPruningProof(peer);
      const verified = verifyPruningProof(proof, proofParams);
      checkProofDifficulty(chain.params, proof, proofParams.genesis);
      const defender = { proof: ourProof(), tipBlueWork: chain.selectedTip().header.blueWork };
      const challenger = { proof: verified, tipBlueWork: verified.pruningPoint.blueWork };
      if (compareProofs(defender, challenger, proofParams).challengerWins) decide({ reason: 'heavier-proof', peer, proof: verified });
      else log.info({ event: 'join_guard_proof_not_heavier', peer: peer.slice(0, 16) }, "a peer off our pruning point's future has no heavier proof");
    } catch (error) {
      const fault = joinPeerFault(error);
      if (fault) options.node().disconnectPeer(peer, fault);
      log.info({ event: 'join_guard_proof_failed', peer: peer.slice(0, 16), err: errorText(error) }, "a peer's proof could not be weighed");
    }
  };

  const checkPoisoned = async (peer: string, error: BlockRuleError): Promise<void> => {
    const point = chain.joinedAt!;
    try {
      const ours = chain.pruningPointRecord(point.id);
      const theirs = (await options.node().fetchTrustedData(peer, fromHex(point.id))).stateRecord;
      const totals = (bytes: Uint8Array | undefined): AcceptanceTotals | undefined => (bytes === undefined ? undefined : decodeAcceptanceRecord(bytes));
      const [mine, other] = [totals(ours), totals(theirs)];
      if (mine !== undefined && other !== undefined && !sameTotals(mine, other)) {
        decide({ reason: 'poisoned', servedBy: options.joinedFrom, reportedBy: peer });
        return;
      }
    } catch (failure) {
      // No second opinion this time (the peer timed out, was busy, moved its point, or answered badly): the block keeps
      // its refusal, unpunished, and a later refusal of its descendants asks again (joinGuardPoisonRetryMs).
      uncheckedAt = options.nowMs();
      log.info({ event: 'join_guard_poison_unchecked', peer: peer.slice(0, 16), err: errorText(failure) }, 'could not compare the join record with this peer');
      return;
    } finally {
      poisonCheck = undefined;
    }
    // Same totals: our join was not the cause; the block is invalid and its sender pays as for any invalid block.
    suspected = undefined;
    options.node().disconnectPeer(peer, new InvalidBlockRelayedError(error.rule, error.banScore, error.message));
  };

  return {
    blockRefused(peer, error) {
      if (chain.joinedAt === undefined) return false;
      // Once the join is judged poisoned the chain is to be thrown away: what it refuses for its bad state costs nobody.
      if (decided) return suspected !== undefined && (error.rule === 'body.state-root.mismatch' || error.rule === 'context.parents.invalid');
      if (error.rule === 'context.pruning-point.violated') {
        const last = askedAt.get(peer);
        if (last === undefined || options.nowMs() - last >= joinGuardProofCooldownMs) {
          askedAt.set(peer, options.nowMs());
          track(checkHeavier(peer));
        }
        return false;
      }
      const fresh = chain.selectedTip().id === chain.joinedAt.id;
      if (!fresh || peer === options.joinedFrom) return false;
      const startCheck = (suspect: BlockRuleError): void => {
        poisonCheck = peer;
        uncheckedAt = undefined;
        track(checkPoisoned(peer, suspect));
      };
      // The descendants of a block spared while the join is in doubt are refused for their parent: spared alike, and
      // a check that could not be made is asked again of their sender.
      if (error.rule === 'context.parents.invalid') {
        if (suspected !== undefined && poisonCheck === undefined && uncheckedAt !== undefined && options.nowMs() - uncheckedAt >= joinGuardPoisonRetryMs) {
          startCheck(suspected);
        }
        return poisonCheck !== undefined || suspected !== undefined;
      }
      if (error.rule !== 'body.state-root.mismatch') return false;
      suspected = error;
      if (poisonCheck === undefined) startCheck(error);
      return true;
    },
    async idle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
