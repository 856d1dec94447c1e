// Synthetic DAGs of real headers for the pruning-proof tests (docs/pruning-proof.md): regtest genesis, then blocks
// mined at the regtest pow limit (a nonce is ground until the hash meets it: two tries on average), so levels fall
// naturally from the PoW hash (one block in 2^j at level ≥ j). Each header carries:
// - blueScore / blueWork / daaScore from the real GHOSTDAG engine (daaScore = blueScore here);
// - levelParents from an oracle that applies the definition of docs/pruning-proof.md "Header version 2" literally:
//   per level, each parent or else its own parents at that level, minus those in the past of another candidate,
//   the headerParentsMax heaviest kept, run-length compressed over levels 1..blockLevelMax
//   (test/unit/pruning-proof/pruning-proof-level-dag.test.ts checks it against the maximal level-≥L blocks of the full past);
// - pruningPoint by a simple rule, not the finality-interval one of src/chain/pruning-point.ts: the deepest block
//   of the selected parent's selected chain at least `pruningDepth` blue score below it (genesis when none).
// Version 2 once src/codec/header.ts knows it (header-v2 branch); until then version 1 headers carry the same two
// in-memory fields, which that encoding leaves out of the hash.
import { type BlockHeader, type LevelParentsRun, headerVersions } from '../../src/codec/header.ts';
import { blockLevelMax } from '../../src/consensus/block-level.ts';
import { type GhostdagEngine, createGhostdagEngine } from '../../src/consensus/ghostdag.ts';
import { regtestParams } from '../../src/consensus/params.ts';
import { blockHash, compactToTarget, hashMeetsTarget, prePowHash, searchNonce, workFromTarget } from '../../src/consensus/pow.ts';
import { headerParentsMax } from '../../src/limits.ts';
import type { ProofHeaderSource } from '../../src/pruning-proof/build-proof.ts';
import { type BlockId, type ProofParams, levelOfId, levelParentIds, proofParamsOf } from '../../src/pruning-proof/level-dag.ts';
import { fromHex, toHex } from '../../src/util/bytes.ts';
import { mulberry32 } from '../consensus-dags.ts';

export const proofHeaderVersion = headerVersions.includes(2) ? 2 : 1;
const top = blockLevelMax(regtestParams.maxTarget);

export interface LevelDagFixture {
  readonly params: ProofParams;
  readonly headers: Map<BlockId, BlockHeader>;
  /** Every block id, genesis first, in the order added (topological). */
  readonly order: BlockId[];
  readonly engine: GhostdagEngine;
  readonly source: ProofHeaderSource;
  /** Mines one block on these parents (sorted here), at level ≥ minLevel; returns its id. */
  addBlock(parents: readonly BlockId[], tag?: number, minLevel?: number): BlockId;
  /**
   * Extends a branch whose tips are `tips` by `count` blocks: one block a round on all tips, and with probability
   * `sideRate` two siblings (merged by the next round). Returns the branch's new tips.
   */
  extend(tips: readonly BlockId[], count: number, options?: { sideRate?: number; tag?: number }): BlockId[];
  /** The pruning point a block's header commits to. */
  pruningPointOf(id: BlockId): BlockId;
  /** The block of highest (blue work, hash) among `tips`. */
  selectedOf(tips: readonly BlockId[]): BlockId;
}

export interface LevelDagOptions {
  readonly seed?: number;
  /** pruningProofM; 20 as regtest. */
  readonly m?: number;
  /** Blue-score depth of the pruning point below a block's selected parent. */
  readonly pruningDepth?: number;
  /** Every block's bits; default the regtest pow limit. A harder target puts every block at a higher level. */
  readonly bits?: number;
}

/**
 * Grinds the nonce (from 0) until the header meets its bits and its hash reaches `minLevel` (2^minLevel tries on
 * average); returns the mined header and its id.
 */
export function mineHeader(header: BlockHeader, minLevel = 0): { header: BlockHeader; id: BlockId } {
  const prePow = prePowHash(header);
  const target = compactToTarget(header.bits);
  for (let start = 0n; ; ) {
    const found = searchNonce(prePow, target, start, 1 << 20);
    if (found.nonce === null) throw new Error('no nonce found');
    const mined = { ...header, nonce: found.nonce };
    const id = toHex(blockHash(mined));
    if (levelOfId(id, { maxTarget: regtestParams.maxTarget, genesis: '' }) >= minLevel) return { header: mined, id };
    start = found.nonce + 1n;
  }
}

/** The header with a nonce whose hash fails its bits (one nonce in two at the regtest pow limit). */
export function unminedHeader(header: BlockHeader): { header: BlockHeader; id: BlockId } {
  const target = compactToTarget(header.bits);
  for (let nonce = 0n; ; nonce++) {
    const h = { ...header, nonce };
    const hash = blockHash(h);
    if (!hashMeetsTarget(hash, target)) return { header: h, id: toHex(hash) };
  }
}

export function createLevelDagFixture(options: LevelDagOptions = {}): LevelDagFixture {
  const rand = mulberry32(options.seed ?? 1);
  const pruningDepth = options.pruningDepth ?? 100;
  const bits = options.bits ?? regtestParams.genesis.bits;
  const blockWork = workFromTarget(compactToTarget(bits));
  const genesisHeader = regtestParams.genesis;
  const genesis = toHex(blockHash(genesisHeader));
  const params: ProofParams = proofParamsOf(regtestParams, options.m ?? 20);
  const headers = new Map<BlockId, BlockHeader>([[genesis, genesisHeader]]);
  const order: BlockId[] = [genesis];
  const engine = createGhostdagEngine({ k: params.k, mergesetSizeLimit: params.mergesetSizeLimit });
  engine.addGenesis(genesis, blockWork);
  const pruningPoints = new Map<BlockId, BlockId>([[genesis, genesis]]);
  const selectedParents = new Map<BlockId, BlockId>();
  const bytesOf = new Map<BlockId, Uint8Array>();
  const hashBytes = (id: BlockId): Uint8Array => {
    let bytes = bytesOf.get(id);
    if (bytes === undefined) bytesOf.set(id, (bytes = fromHex(id)));
    return bytes;
  };
  const levels = new Map<BlockId, number>();
  const levelOf = (id: BlockId): number => {
    let level = levels.get(id);
    if (level === undefined) levels.set(id, (level = levelOfId(id, params)));
    return level;
  };

  /** Per level 1..top, the parents of a block with these direct parents (the definition, literally). */
  function levelParentsOf(parents: readonly BlockId[]): BlockId[][] {
    const out: BlockId[][] = [];
    for (let level = 1; level <= top; level++) {
      // One parent below the level: its own parents there, the same array (most blocks of a chain-like DAG).
      if (parents.length === 1 && levelOf(parents[0]!) < level) {
        const inherited = levelParentIds(headers.get(parents[0]!)!, level) as BlockId[];
        out.push(inherited);
        if (inherited.length === 1 && inherited[0] === genesis) {
          for (let rest = level + 1; rest <= top; rest++) out.push(inherited);
          break;
        }
        continue;
      }
      const candidates = new Set<BlockId>();
      for (const p of parents) {
        if (levelOf(p) >= level) candidates.add(p);
        else for (const q of levelParentIds(headers.get(p)!, level)) candidates.add(q);
      }
      const all = [...candidates];
      let kept = all.length === 1 ? all : all.filter((c) => !all.some((o) => o !== c && engine.isDagAncestorOf(c, o)));
      if (kept.length > headerParentsMax) {
        const work = (id: BlockId): bigint => headers.get(id)!.blueWork;
        kept = kept.sort((a, b) => (work(a) !== work(b) ? (work(b) > work(a) ? 1 : -1) : a < b ? 1 : -1)).slice(0, headerParentsMax);
      }
      kept.sort();
      out.push(kept);
      // Once only genesis is left, every higher level has only genesis too.
      if (kept.length === 1 && kept[0] === genesis) {
        for (let rest = level + 1; rest <= top; rest++) out.push(kept);
        break;
      }
    }
    return out;
  }

  function runsOf(perLevel: BlockId[][]): LevelParentsRun[] {
    const runs: { levels: number; ids: BlockId[] }[] = [];
    for (const ids of perLevel) {
      const last = runs[runs.length - 1];
      if (last !== undefined && (last.ids === ids || (last.ids.length === ids.length && last.ids.every((id, i) => id === ids[i])))) last.levels++;
      else runs.push({ levels: 1, ids });
    }
    return runs.map((r) => ({ levels: r.levels, parents: r.ids.map(hashBytes) }));
  }

  function pruningPointFrom(selectedParent: BlockId): BlockId {
    const limit = headers.get(selectedParent)!.blueScore - pruningDepth;
    if (limit < 0) return genesis;
    let current = selectedParent;
    while (headers.get(current)!.blueScore > limit) current = selectedParents.get(current)!;
    return current;
  }

  function addBlock(parentList: readonly BlockId[], tag = 1, minLevel = 0): BlockId {
    const parents = [...parentList].sort();
    const data = engine.computeBlock(parents, blockWork);
    const pruningPoint = pruningPointFrom(data.selectedParent!);
    const draft: BlockHeader = {
      version: proofHeaderVersion,
      parents: parents.map(hashBytes),
      txRoot: new Uint8Array(32),
      stateRoot: new Uint8Array(32),
      timestampMs: genesisHeader.timestampMs + order.length * 1000,
      bits,
      daaScore: data.blueScore,
      blueScore: data.blueScore,
      blueWork: data.blueWork,
      miner: Uint8Array.from({ length: 33 }, (_, i) => (i === 0 ? 0 : (i * 7 + tag) & 0xff)),
      gpuMining: false,
      nonce: 0n,
      levelParents: runsOf(levelParentsOf(parents)),
      pruningPoint: hashBytes(pruningPoint),
    };
    const { header, id } = mineHeader(draft, minLevel);
    engine.addBlock(id, parents, blockWork);
    headers.set(id, header);
    order.push(id);
    pruningPoints.set(id, pruningPoint);
    selectedParents.set(id, data.selectedParent!);
    return id;
  }

  function extend(tips: readonly BlockId[], count: number, opts: { sideRate?: number; tag?: number } = {}): BlockId[] {
    const sideRate = opts.sideRate ?? 0.2;
    let current = [...tips];
    let made = 0;
    while (made < count) {
      const width = rand() < sideRate && count - made >= 2 ? 2 : 1;
      const next: BlockId[] = [];
      for (let w = 0; w < width; w++) next.push(addBlock(current, (opts.tag ?? 1) + w * 16));
      made += width;
      current = next;
    }
    return current;
  }

  return {
    params,
    headers,
    order,
    engine,
    source: { header: (id) => headers.get(id) },
    addBlock,
    extend,
    pruningPointOf: (id) => pruningPoints.get(id)!,
    selectedOf: (tips) => tips.reduce((a, b) => (engine.compareBlocks(a, b) >= 0 ? a : b)),
  };
}
