/**
 * Whole blocks in relay (docs/p2p.md "Relay"): a validated block pushed as a compact block to the peers that asked
 * for them (with the transactions each is not known to hold, to those that asked for that) and announced with `inv`
 * to the others; a relayed block handed to the chain, its missing parents asked of its sender level by level, or a
 * sync round started when it is far ahead of us.
 */
import type { Block } from '../../codec/block.ts';
import type { BlockHeader } from '../../codec/header.ts';
import { blockHash } from '../../consensus/pow.ts';
import { fromHex, toHex } from '../../util/bytes.ts';
import { compactFormOf, confirmTransactions, prefilledFor, type CompactForm } from '../compact-relay.ts';
import type { CompactBlockMessage } from '../messages/compact-block.ts';
import type { PrefilledBlockMessage } from '../messages/prefilled-block.ts';
import { p2pOrphanParentRequestsMax } from '../limits.ts';
import { InvType } from '../messages/inventory.ts';
import { txShortKey } from '../messages/tx-inventory.ts';
import { Services } from '../messages/version.ts';
import type { Peer } from '../peer.ts';
import { UnsolicitedFloodError } from '../protocol-errors.ts';
import { requestBlocks } from './block-requests.ts';
import { pushesTo } from './push-selection.ts';
import { wants, type RelayState } from './state.ts';

/** A relayed orphan more than this many blue blocks above our tip starts a headers-first sync with its peer. */
const orphanResolutionBlueScoreRange = 64;

/**
 * Tells every ready peer not known to have it of block `id`: a compact block to those that want one pushed
 * (prefilled with what each lacks, to those that want that), else an inv.
 */
export function announceBlock(state: RelayState, id: string, body?: Block): void {
  const peers = state.readyPeers();
  // A lone node (a devnet, or one between peers) pays nothing here: what the form feeds is all for peers.
  if (peers.length === 0) return;
  const hash = fromHex(id);
  const block = body ?? state.chain.getBlock(id);
  const form = block ? compactFormOf(block) : undefined;
  if (form) {
    for (const txId of form.txIds) state.txConfirmedRecently.add(txShortKey(txId));
    confirmTransactions(state.compact, form.txIds);
  }
  for (const peer of peers) {
    if (peer.known.has(id)) continue;
    peer.known.add(id);
    if (form && wants(peer, Services.compactBlocks) && pushesTo(state, peer)) {
      peer.send(compactMessageFor(form, peer));
      continue;
    }
    peer.send({ type: 'inv', items: [{ kind: InvType.block, hash }] });
  }
}

/** A block's compact form as `peer` takes it: prefilled with what it is not known to hold, if it asked for that. */
export function compactMessageFor(form: CompactForm, peer: Peer): CompactBlockMessage | PrefilledBlockMessage {
  return wants(peer, Services.prefilledBlocks) ? prefilledFor(form, peer.known) : form.message;
}

export function onBlock(state: RelayState, peer: Peer, block: Block): void {
  const id = toHex(blockHash(block.header));
  peer.known.add(id);
  if (state.ibd.onBlock(peer, block, id)) return;
  const solicited = state.requested.get(id)?.peer === peer;
  state.requested.delete(id);
  if (!solicited && !block.header.parents.every((p) => knownOrComing(state, toHex(p))) && !peer.orphanAllowance.take()) {
    // A whole block nobody asked for: an honest peer announces (or pushes a compact block) first.
    throw new UnsolicitedFloodError('too many unsolicited blocks whose parents are unknown');
  }
  acceptRelayed(state, peer, block, id);
}

/**
 * A pushed compact block whose parents we lack, past the peer's orphan allowance: dropped, nothing stored (its PoW,
 * one hash, was the only work it cost), an anomaly and not a ban. An honest peer does exactly this after a partition
 * heals — it pushes each new block of its side while we still lack that side's DAG (the lab's 5-minute cut had honest
 * nodes ban each other for it) — so the answer is to fetch the gap from it in one headers round (at most one such
 * round a peer per cooldown), which brings the dropped block along, and to sync from it when it is ahead.
 */
export function orphanOverAllowance(state: RelayState, peer: Peer, header: BlockHeader, id: string): void {
  peer.anomaly('a block whose parents are unknown, past the orphan allowance');
  if (header.blueWork > peer.best.blueWork) peer.best = { blueWork: header.blueWork, blueScore: header.blueScore, tip: id };
  state.ibd.consider(peer);
  state.ibd.fetchAncestors(peer);
}

/**
 * A parent we hold, or a compact block waiting for its transactions (at most compactPendingMax of them): a pushed
 * child of it is the normal race of a block a second, not an unsolicited orphan to count against the peer. A
 * parent merely asked for does not count: a flood of orphans would make its own parents "coming".
 */
export function knownOrComing(state: RelayState, id: string): boolean {
  return state.chain.has(id) || state.compact.pending.has(id);
}

/** A relayed block, whole: into the chain; an orphan fetches its parents, a heavier one raises the peer's best. */
export function acceptRelayed(state: RelayState, peer: Peer, block: Block, id: string): void {
  state.adding.add(id);
  state.chain.addBlock(block).finally(() => state.adding.delete(id)).then(
    (result) => {
      const h = block.header;
      if (result.status === 'orphan') onOrphan(state, peer, block, id, result.missing);
      else if (h.blueWork > peer.best.blueWork) peer.best = { blueWork: h.blueWork, blueScore: h.blueScore, tip: id };
    },
    (error: unknown) => state.onBlockRejected(peer, error),
  );
}

function onOrphan(state: RelayState, peer: Peer, block: Block, id: string, missing: readonly string[]): void {
  const header = block.header;
  if (header.blueScore > state.chain.selectedTip().header.blueScore + orphanResolutionBlueScoreRange) {
    if (header.blueWork > peer.best.blueWork) peer.best = { blueWork: header.blueWork, blueScore: header.blueScore, tip: id };
    state.ibd.consider(peer);
    return;
  }
  const { orphanLevel } = state;
  const level = orphanLevel.get(id) ?? 0;
  orphanLevel.delete(id);
  // A parent that is one level down (an orphan's orphan), or that nobody has told us of — not held, not waiting for
  // its transactions, not asked of anyone, not in its preverify — is a gap, not the race of a block a second (where
  // the parent is on its way from whoever sent it): its past is fetched headers-first in one round trip, not level by
  // level.
  const told = (parent: string) => knownOrComing(state, parent) || state.requested.has(parent) || state.adding.has(parent);
  if (level >= 1 || !missing.every(told)) state.ibd.fetchAncestors(peer);
  for (const parent of missing) orphanLevel.set(parent, level + 1);
  while (orphanLevel.size > p2pOrphanParentRequestsMax) orphanLevel.delete(orphanLevel.keys().next().value as string);
  requestBlocks(state, peer, missing);
}
