/**
 * A header-only chain for light clients: every header runs the full node's header stages (src/chain/
 * validate-header.ts) — in isolation, PoW, then in context with GHOSTDAG's blue score and blue work from the same
 * engine (src/consensus/ghostdag.ts), the DAA's bits and the past median time from the same window code
 * (src/chain/child-rules.ts), and a version 2 header's level parents and pruning point (src/chain/header-commitments.ts).
 * What a light client cannot check is the body and the state root: it has
 * neither the transactions nor the state; it trusts the state root only as far as the PoW on the header that
 * commits to it (docs/web.md "What the light node verifies").
 *
 * Verified headers go to a LightHeaderStore in verification order; `open` replays them through GHOSTDAG (their
 * PoW was checked before they were stored — the store is the client's own), so a reloaded tab resumes at once.
 */
import { createIndexedBlock, type IndexedBlock } from '../chain/block-index.ts';
import { BlockRuleError } from '../chain/errors.ts';
import { validateHeaderCommitments, type CommitmentDag } from '../chain/header-commitments.ts';
import { ghostdagOfParents, validateHeaderAgainstParent, validateHeaderInIsolation, validatePow } from '../chain/validate-header.ts';
import { decodeHeader, encodeHeader, type BlockHeader } from '../codec/header.ts';
import { createGhostdagEngine, type BlockId, type GhostdagEngine } from '../consensus/ghostdag.ts';
import { genesisHash, type NetworkParams } from '../consensus/params.ts';
import { blockHash, compactToTarget, workFromTarget } from '../consensus/pow.ts';
import { equalBytes, toHash0x, toHex } from '../util/bytes.ts';
import type { Clock } from '../util/clock.ts';
import { LightSyncError } from './errors.ts';
import { lightHeadersMax } from './limits.ts';
import type { LightHeaderStore, StoredHeader } from './light-store.ts';

export interface LightChain {
  readonly params: NetworkParams;
  readonly engine: GhostdagEngine;
  readonly genesis: IndexedBlock;
  /**
   * Verifies headers in order (each header's parents must be known or earlier in the list) and indexes them;
   * known ones are skipped. Throws LightSyncError at the first bad one — the ones before it stay verified.
   * Returns how many were new. Call `flush()` to persist them.
   */
  addHeaders(headers: readonly BlockHeader[]): number;
  /** Writes the headers verified since the last flush to the store. */
  flush(): Promise<void>;
  has(id: BlockId): boolean;
  get(id: BlockId): IndexedBlock | undefined;
  selectedTip(): IndexedBlock;
  /** The block at `height` on the selected chain. */
  blockAtHeight(height: number): IndexedBlock | undefined;
  /** Headers known, genesis included. */
  count(): number;
  /** Headers replayed from the store at open (verified in an earlier session). */
  readonly resumedCount: number;
  /** Selected-chain hashes, tip first, one apart for ten then doubling, ending at genesis (docs/p2p.md). */
  locator(): Uint8Array[];
}

export interface LightChainOptions {
  readonly params: NetworkParams;
  readonly store: LightHeaderStore;
  readonly clock: Clock;
}

const workOfBits = (bits: number): bigint => workFromTarget(compactToTarget(bits));
const locatorDenseEntries = 10;
const locatorEntriesMax = 64;

export async function openLightChain(options: LightChainOptions): Promise<LightChain> {
  const { params, store, clock } = options;
  const engine = createGhostdagEngine({ k: params.ghostdagK, mergesetSizeLimit: params.mergesetSizeLimit });
  const index = new Map<BlockId, IndexedBlock>();
  const chainIds: BlockId[] = [];
  let staged: StoredHeader[] = [];
  let nextSeq = 1;

  const genesisId = toHex(genesisHash(params));
  const genesisData = engine.addGenesis(genesisId, workOfBits(params.genesis.bits));
  void genesisData;
  const genesis = createIndexedBlock(genesisId, blockHash(params.genesis), params.genesis, null, 0);
  index.set(genesisId, genesis);
  const commitments: CommitmentDag = { params, genesis, get: (id) => index.get(id), engine };
  chainIds[0] = genesisId;
  let tip = genesis;

  /** Moves the selected chain index to end at `next` (a reorganisation rewrites from the fork point). */
  const moveChainTo = (next: IndexedBlock): void => {
    chainIds.length = Math.min(chainIds.length, next.height + 1);
    for (let walk: IndexedBlock | null = next; walk && chainIds[walk.height] !== walk.id; walk = walk.selectedParent) {
      chainIds[walk.height] = walk.id;
    }
    tip = next;
  };

  const insert = (id: BlockId, hash: Uint8Array, header: BlockHeader, parentIds: BlockId[], work: bigint): IndexedBlock => {
    const data = engine.addBlock(id, parentIds, work);
    const entry = createIndexedBlock(id, hash, header, index.get(data.selectedParent!)!, nextSeq++);
    index.set(id, entry);
    if (engine.compareBlocks(id, tip.id) > 0) moveChainTo(entry);
    return entry;
  };

  // --- resume: the store holds only headers this client verified itself ---
  const stored = await store.load();
  for (const row of stored) {
    const header = decodeHeader(row.bytes);
    const id = toHex(row.hash);
    const parentIds = header.parents.map(toHex);
    if (!parentIds.every((p) => index.has(p)) || index.has(id)) {
      // A store that does not replay is not ours to repair: start over rather than trust half of it.
      await store.clear();
      return openLightChain(options);
    }
    insert(id, row.hash, header, parentIds, workOfBits(header.bits));
  }
  const resumedCount = stored.length;

  const verifyOne = (header: BlockHeader, hash: Uint8Array, id: BlockId): void => {
    const target = validateHeaderInIsolation(header, params, clock.nowMs());
    validatePow(hash, target);
    const parentIds = header.parents.map(toHex);
    const missing = parentIds.find((p) => !index.has(p));
    if (missing !== undefined) {
      throw new LightSyncError('header-disconnected', `header ${toHash0x(hash)} names parent 0x${missing}, which is neither known nor earlier in the page`, { headerHash: toHash0x(hash) });
    }
    const work = workFromTarget(target);
    const data = ghostdagOfParents(engine, parentIds, work);
    const selectedParent = index.get(data.selectedParent!)!;
    validateHeaderAgainstParent(header, data, selectedParent, params);
    validateHeaderCommitments(commitments, header, parentIds, selectedParent);
    const entry = insert(id, hash, header, parentIds, work);
    staged.push({ seq: entry.seq, hash, bytes: encodeHeader(header) });
  };

  return {
    params,
    engine,
    genesis,
    resumedCount,
    addHeaders(headers) {
      let added = 0;
      for (const header of headers) {
        const hash = blockHash(header);
        const id = toHex(hash);
        if (index.has(id)) continue;
        if (index.size >= lightHeadersMax) throw new LightSyncError('store-full', `the light node holds ${lightHeadersMax} headers, its maximum`);
        try {
          verifyOne(header, hash, id);
        } catch (cause) {
          if (cause instanceof BlockRuleError) {
            throw new LightSyncError('header-invalid', `header ${toHash0x(hash)} refused: ${cause.message}`, { headerHash: toHash0x(hash), rule: cause.rule, cause });
          }
          throw cause;
        }
        added++;
      }
      return added;
    },
    async flush() {
      if (staged.length === 0) return;
      const batch = staged;
      staged = [];
      await store.append(batch);
    },
    has: (id) => index.has(id),
    get: (id) => index.get(id),
    selectedTip: () => tip,
    blockAtHeight(height) {
      const id = chainIds[height];
      return id === undefined ? undefined : index.get(id);
    },
    count: () => index.size,
    locator() {
      const out: Uint8Array[] = [];
      let height = tip.height;
      let step = 1;
      while (height > 0 && out.length < locatorEntriesMax - 1) {
        out.push(index.get(chainIds[height]!)!.hash);
        if (out.length >= locatorDenseEntries) step *= 2;
        height -= step;
      }
      out.push(genesis.hash);
      return out;
    },
  };
}

/** True when `hash` is this network's genesis (a peer on another network is refused before any header). */
export function isGenesisOf(params: NetworkParams, hash: Uint8Array): boolean {
  return equalBytes(hash, genesisHash(params));
}
