/**
 * A header-only chain for light clients: every header runs the full node's header stages (src/chain/
 * validate-header.ts) — in isolation, PoW, then in context with GHOSTDAG's blue score and blue work from the same
 * engine (src/consensus/ghostdag.ts), the DAA's bits and the past median time from the same window code
 * (src/chain/child-rules.ts), and a version 2 header's level parents and pruning point (src/chain/header-commitments.ts).
 * What a light client cannot check is the body and the state root: it has
 * neither the transactions nor the state; it trusts the state root only as far as the PoW on the header that
 * commits to it (docs/web.md "What the light node verifies").
 *
 * It starts from genesis, or from a join (light-join.ts): a verified pruning-point proof and the trusted blocks of
 * its point, hung from the engine's virtual origin with the GHOSTDAG data they came with (docs/pruning-proof.md
 * "The tab"). Verified headers go to a LightHeaderStore in verification order, after the join if there is one;
 * `open` rebuilds the join and replays the headers through GHOSTDAG (their PoW was checked before they were
 * stored — the store is the client's own), so a reloaded tab resumes at once.
 */
import { chainAncestorAt, createIndexedBlock, skipHeight, type IndexedBlock } from '../chain/block-index.ts';
import { BlockRuleError } from '../chain/errors.ts';
import { pruningPointReadable, validateHeaderCommitments, validateLevelParents, type CommitmentDag } from '../chain/header-commitments.ts';
import { checkAroundPoint } from '../chain/trusted-check.ts';
import { TrustedDataError } from '../chain/trusted-errors.ts';
import { checkAboveJoin } from '../chain/trusted-import.ts';
import { ghostdagOfParents, validateHeaderAgainstParent, validateHeaderInIsolation, validatePow } from '../chain/validate-header.ts';
import { decodeHeader, encodeHeader, type BlockHeader } from '../codec/header.ts';
import { createGhostdagEngine, type BlockId, type GhostdagEngine } from '../consensus/ghostdag.ts';
import { genesisHash, type NetworkParams } from '../consensus/params.ts';
import { blockHash, compactToTarget, workFromTarget } from '../consensus/pow.ts';
import type { VerifiedProof } from '../proof/verify-proof.ts';
import { equalBytes, toHash0x, toHex } from '../util/bytes.ts';
import type { Clock } from '../util/clock.ts';
import { LightSyncError } from './errors.ts';
import { joinedCommitmentDag } from './join-commitments.ts';
import { reopenJoin, storedJoinOf, verifyJoinProof, type CheckedJoin } from './light-join.ts';
import type { LightHeaderStore, StoredHeader } from './light-store.ts';

export interface LightChain {
  readonly params: NetworkParams;
  /** The current engine (a join replaces it). */
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
  /** The block at `height` on the selected chain (undefined below a join's trusted blocks). */
  blockAtHeight(height: number): IndexedBlock | undefined;
  /** Headers known: genesis, or a join's trusted blocks, and every header verified above. */
  count(): number;
  /** Headers replayed from the store at open (verified in an earlier session). */
  readonly resumedCount: number;
  /** Selected-chain hashes, tip first, one apart for ten then doubling, ending at genesis (docs/p2p.md). */
  locator(): Uint8Array[];
  /** The pruning point this chain joined at; undefined for a chain from genesis. */
  joinedAt(): IndexedBlock | undefined;
  /** The verified proof of the current join (verified again, once, after a reload); undefined from genesis. */
  joinProof(): VerifiedProof | undefined;
  /**
   * Rebuilds the chain on `join` (checked by checkJoin) and stores it, dropping every header before; throws
   * LightSyncError (`trusted-invalid`) when the trusted blocks do not fit together, with nothing changed.
   */
  join(join: CheckedJoin): Promise<void>;
  /** Headers above the join whose pruning point was not recomputed (it reads below the trusted set; join-commitments.ts). */
  commitmentsDeferred(): number;
}

export interface LightChainOptions {
  readonly params: NetworkParams;
  readonly store: LightHeaderStore;
  readonly clock: Clock;
}

interface JoinedState {
  readonly point: IndexedBlock;
  readonly lowestChain: IndexedBlock;
  readonly checked: CheckedJoin;
  verified: VerifiedProof | undefined;
}

interface ChainState {
  readonly engine: GhostdagEngine;
  readonly index: Map<BlockId, IndexedBlock>;
  /** Selected-chain ids by height (from the join's lowest chain block up, on a joined chain). */
  readonly chainIds: BlockId[];
  readonly commitments: CommitmentDag;
  readonly joined: JoinedState | undefined;
  tip: IndexedBlock;
  nextSeq: number;
}

const workOfBits = (bits: number): bigint => workFromTarget(compactToTarget(bits));
const locatorDenseEntries = 10;
const locatorEntriesMax = 64;

function trustedInvalid(error: unknown): never {
  if (error instanceof TrustedDataError) {
    throw new LightSyncError('trusted-invalid', `the trusted data was refused (${error.reason}): ${error.message}`, { trustedReason: error.reason, cause: error });
  }
  // Mergesets that contradict the DAG the headers form trip the reachability index's invariants.
  throw new LightSyncError('trusted-invalid', `the trusted blocks' GHOSTDAG data does not fit their DAG: ${String((error as Error)?.message ?? error)}`, { trustedReason: 'ghostdag-inconsistent', cause: error });
}

export async function openLightChain(options: LightChainOptions): Promise<LightChain> {
  const { params, store, clock } = options;
  const newEngine = (): GhostdagEngine => createGhostdagEngine({ k: params.ghostdagK, mergesetSizeLimit: params.mergesetSizeLimit });
  const genesisId = toHex(genesisHash(params));
  const genesis = createIndexedBlock(genesisId, blockHash(params.genesis), params.genesis, null, 0);

  const fromGenesis = (): ChainState => {
    const engine = newEngine();
    engine.addGenesis(genesisId, workOfBits(params.genesis.bits));
    const index = new Map<BlockId, IndexedBlock>([[genesisId, genesis]]);
    const commitments: CommitmentDag = { params, genesis, get: (id) => index.get(id), engine };
    return { engine, index, chainIds: [genesisId], commitments, joined: undefined, tip: genesis, nextSeq: 1 };
  };

  /** The trusted blocks under a virtual origin, checked around the point; throws LightSyncError, changes nothing. */
  const fromJoin = (checked: CheckedJoin): ChainState => {
    const engine = newEngine();
    const index = new Map<BlockId, IndexedBlock>();
    let nextSeq = 1;
    try {
      engine.addTrustedOrigin();
      for (const { id, block, work } of checked.trusted.blocks) engine.addTrustedBlock(id, block.header.parents.map(toHex), work, block.ghostdag, block.height);
      checkAroundPoint(params, engine, checked.trusted, { headersOnly: true });
    } catch (error) {
      trustedInvalid(error);
    }
    for (const { id, hash, block } of checked.trusted.blocks) {
      const sp = block.ghostdag.selectedParent === null ? null : (index.get(block.ghostdag.selectedParent) ?? null);
      // Real heights: a block whose selected parent is below the set starts its chain there (block-index.ts).
      const skip = sp ? chainAncestorAt(sp, skipHeight(block.height)) : null;
      index.set(id, { id, hash, header: block.header, selectedParent: sp, height: block.height, skip, seq: nextSeq++ });
    }
    const point = index.get(checked.trusted.point.id)!;
    engine.setSelectedTip(point.id);
    const chainIds: BlockId[] = [];
    let lowestChain = point;
    for (let walk: IndexedBlock | null = point; walk; walk = walk.selectedParent) {
      chainIds[walk.height] = walk.id;
      lowestChain = walk;
    }
    const proven = new Map<BlockId, { hash: Uint8Array; header: BlockHeader }>();
    for (const level of checked.proof.levels) {
      for (const header of level) {
        const hash = blockHash(header);
        proven.set(toHex(hash), { hash, header });
      }
    }
    const commitments = joinedCommitmentDag({ params, genesis, get: (id) => index.get(id), engine }, { proven, lowestChain });
    return { engine, index, chainIds, commitments, joined: { point, lowestChain, checked, verified: checked.verified }, tip: point, nextSeq };
  };

  let state = fromGenesis();
  let staged: StoredHeader[] = [];
  let nextStoredSeq = 1;
  let deferred = 0;

  /** Moves the selected chain index to end at `next` (a reorganisation rewrites from the fork point). */
  const moveChainTo = (next: IndexedBlock): void => {
    const { chainIds } = state;
    chainIds.length = Math.min(chainIds.length, next.height + 1);
    for (let walk: IndexedBlock | null = next; walk && chainIds[walk.height] !== walk.id; walk = walk.selectedParent) {
      chainIds[walk.height] = walk.id;
    }
    state.tip = next;
  };

  const insert = (id: BlockId, hash: Uint8Array, header: BlockHeader, parentIds: BlockId[], work: bigint): IndexedBlock => {
    const { engine, index } = state;
    const data = engine.addBlock(id, parentIds, work);
    const entry = createIndexedBlock(id, hash, header, index.get(data.selectedParent!)!, state.nextSeq++);
    index.set(id, entry);
    if (engine.compareBlocks(id, state.tip.id) > 0) moveChainTo(entry);
    return entry;
  };

  // --- resume: the store holds only a join and headers this client verified itself ---
  const storedJoin = await store.loadJoin();
  if (storedJoin !== undefined) {
    const reopened = reopenJoin(params, storedJoin, clock.nowMs());
    try {
      if (reopened === undefined) throw new LightSyncError('trusted-invalid', 'the stored join does not read back');
      state = fromJoin(reopened);
    } catch (error) {
      if (!(error instanceof LightSyncError)) throw error;
      await store.clear();
      return openLightChain(options);
    }
  }
  const stored = await store.load();
  for (const row of stored) {
    const header = decodeHeader(row.bytes);
    const id = toHex(row.hash);
    const parentIds = header.parents.map(toHex);
    if (!parentIds.every((p) => state.index.has(p)) || state.index.has(id)) {
      // A store that does not replay is not ours to repair: start over rather than trust half of it.
      await store.clear();
      return openLightChain(options);
    }
    insert(id, row.hash, header, parentIds, workOfBits(header.bits));
  }
  nextStoredSeq = stored.length + 1;
  const resumedCount = stored.length;

  const checkCommitments = (header: BlockHeader, parentIds: BlockId[], selectedParent: IndexedBlock): void => {
    const { joined, commitments } = state;
    if (header.version >= 2 && joined !== undefined && !pruningPointReadable(commitments, selectedParent, joined.lowestChain)) {
      validateLevelParents(commitments, header, parentIds);
      deferred++;
      return;
    }
    validateHeaderCommitments(commitments, header, parentIds, selectedParent);
  };

  const verifyOne = (header: BlockHeader, hash: Uint8Array, id: BlockId): void => {
    const { engine, index, joined } = state;
    const target = validateHeaderInIsolation(header, params, clock.nowMs());
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
    checkCommitments(header, parentIds, selectedParent);
    insert(id, hash, header, parentIds, work);
    staged.push({ seq: nextStoredSeq++, hash, bytes: encodeHeader(header) });
  };

  return {
    params,
    get engine() {
      return state.engine;
    },
    genesis,
    resumedCount,
    addHeaders(headers) {
      let added = 0;
      for (const header of headers) {
        const hash = blockHash(header);
        const id = toHex(hash);
        if (state.index.has(id)) continue;
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
    has: (id) => state.index.has(id),
    get: (id) => state.index.get(id),
    selectedTip: () => state.tip,
    blockAtHeight(height) {
      const id = state.chainIds[height];
      return id === undefined ? undefined : state.index.get(id);
    },
    count: () => state.index.size,
    locator() {
      const { tip, chainIds, index, joined } = state;
      const lowest = joined?.lowestChain.height ?? 0;
      const out: Uint8Array[] = [];
      let height = tip.height;
      let step = 1;
      while (height > lowest && out.length < locatorEntriesMax - 2) {
        out.push(index.get(chainIds[height]!)!.hash);
        if (out.length >= locatorDenseEntries) step *= 2;
        height -= step;
      }
      if (joined !== undefined && joined.lowestChain.id !== genesis.id) out.push(joined.lowestChain.hash);
      out.push(genesis.hash);
      return out;
    },
    joinedAt: () => state.joined?.point,
    joinProof() {
      const joined = state.joined;
      if (joined === undefined) return undefined;
      // The stored proof verified when it was joined; a reload verifies it again only to compare it with another.
      joined.verified ??= verifyJoinProof(params, joined.checked.proof);
      return joined.verified;
    },
    async join(checked) {
      const next = fromJoin(checked);
      await store.saveJoin(storedJoinOf(checked));
      state = next;
      staged = [];
      nextStoredSeq = 1;
      deferred = 0;
    },
    commitmentsDeferred: () => deferred,
  };
}

/** True when `hash` is this network's genesis (a peer on another network is refused before any header). */
export function isGenesisOf(params: NetworkParams, hash: Uint8Array): boolean {
  return equalBytes(hash, genesisHash(params));
}
