/**
 * Verifying headers with the full node's header stages (src/chain/validate-header.ts): in isolation, PoW, parents
 * known, above the join, GHOSTDAG against the parents, the DAA and median time, then a version 2 header's level
 * parents and pruning point. A verified header is indexed and staged for the store.
 */
import { BlockRuleError } from '../../chain/errors.ts';
import { pruningPointReadable, validateHeaderCommitments, validateLevelParents } from '../../chain/header-commitments.ts';
import type { IndexedBlock } from '../../chain/block-index.ts';
import { checkAboveJoin } from '../../chain/trusted-import.ts';
import { ghostdagOfParents, validateHeaderAgainstParent, validateHeaderInIsolation, validatePow } from '../../chain/validate-header.ts';
import { encodeHeader, type BlockHeader } from '../../codec/header.ts';
import type { BlockId } from '../../consensus/ghostdag.ts';
import { blockHash, workFromTarget } from '../../consensus/pow.ts';
import { toHash0x, toHex } from '../../util/bytes.ts';
import { LightSyncError } from '../errors.ts';
import { insertHeader } from './graph.ts';
import type { LightChainState } from './state.ts';

/**
 * Verifies headers in order and indexes them; known ones are skipped. Throws LightSyncError at the first bad one —
 * the ones before it stay verified. Returns how many were new.
 */
export function addHeaders(state: LightChainState, headers: readonly BlockHeader[]): number {
  let added = 0;
  for (const header of headers) {
    const hash = blockHash(header);
    const id = toHex(hash);
    if (state.graph.index.has(id)) continue;
    try {
      verifyHeader(state, header, hash, id);
    } catch (cause) {
      if (cause instanceof BlockRuleError) {
        throw new LightSyncError('header-invalid', `header ${toHash0x(hash)} refused: ${cause.message}`, { headerHash: toHash0x(hash), rule: cause.rule, cause });
      }
      throw cause;
    }
    added++;
  }
  return added;
}

function verifyHeader(state: LightChainState, header: BlockHeader, hash: Uint8Array, id: BlockId): void {
  const { params, graph } = state;
  const { engine, index, joined } = graph;
  const target = validateHeaderInIsolation(header, params, state.clock.nowMs());
  validatePow(hash, target);
  const parentIds = header.parents.map(toHex);
  const missing = parentIds.find((p) => !index.has(p));
  if (missing !== undefined) {
    throw new LightSyncError('header-disconnected', `header ${toHash0x(hash)} names parent 0x${missing}, which is neither known nor earlier in the page`, { headerHash: toHash0x(hash) });
  }
  // Nothing below the join's point has a past here to be checked against (trusted-import.ts).
  if (joined !== undefined) checkAboveJoin(engine, joined.point.id, parentIds);
  const work = workFromTarget(target);
  const data = ghostdagOfParents(engine, parentIds, work);
  const selectedParent = index.get(data.selectedParent!)!;
  validateHeaderAgainstParent(header, data, selectedParent, params);
  checkCommitments(state, header, parentIds, selectedParent);
  insertHeader(graph, id, hash, header, parentIds, work);
  state.staged.push({ seq: state.nextStoredSeq++, hash, bytes: encodeHeader(header) });
}

/** A header whose pruning point reads below the trusted set gets its level parents checked, the point deferred. */
function checkCommitments(state: LightChainState, header: BlockHeader, parentIds: BlockId[], selectedParent: IndexedBlock): void {
  const { joined, commitments } = state.graph;
  if (header.version >= 2 && joined !== undefined && !pruningPointReadable(commitments, selectedParent, joined.lowestChain)) {
    validateLevelParents(commitments, header, parentIds);
    state.deferred++;
    return;
  }
  validateHeaderCommitments(commitments, header, parentIds, selectedParent);
}
