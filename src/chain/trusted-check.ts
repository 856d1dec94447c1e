/**
 * The checks trusted data passes before a chain is built on it (docs/pruning-proof.md "Trusted data"): everything a
 * header commits to is checked against the header (its PoW binds blue score and blue work), the GHOSTDAG data against
 * itself and the other blocks of the set, and — once the blocks are in the engine — the set's shape around the
 * pruning point. Each refusal is a TrustedDataError with its reason; nothing is written before all have passed.
 */
import type { BlockHeader } from '../codec/header.ts';
import type { BlockId, GhostdagEngine } from '../consensus/ghostdag.ts';
import { compareBlueWork } from '../consensus/ghostdag-order.ts';
import { genesisHash, type NetworkParams } from '../consensus/params.ts';
import { blockHash } from '../consensus/pow.ts';
import type { WitnessVerifier } from '../crypto/witness-check.ts';
import { toHex } from '../util/bytes.ts';
import { BlockRuleError } from './errors.ts';
import { workOfBits } from './header-in-context.ts';
import { trustedChainDepth, type TrustedBlock, type TrustedData } from './trusted-data.ts';
import { TrustedDataError } from './trusted-errors.ts';
import { validateBodyInIsolation } from './validate-body.ts';
import { validateHeaderInIsolation, validatePow } from './validate-header.ts';

interface CheckedBlock {
  readonly id: BlockId;
  readonly hash: Uint8Array;
  readonly block: TrustedBlock;
  readonly work: bigint;
}

export interface CheckedTrustedData {
  readonly blocks: readonly CheckedBlock[];
  readonly point: CheckedBlock;
}

const idPattern = /^[0-9a-f]{64}$/;
const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

function checkShape(block: TrustedBlock, at: number): void {
  const g = block?.ghostdag;
  const lists = g !== undefined && Array.isArray(g.mergesetBlues) && Array.isArray(g.mergesetReds) && g.bluesAnticoneSizes instanceof Map;
  const ids = lists ? [...g.mergesetBlues, ...g.mergesetReds, ...g.bluesAnticoneSizes.keys()] : [];
  const ok =
    lists &&
    block.header !== undefined &&
    (block.transactions === undefined || Array.isArray(block.transactions)) &&
    isCount(block.height) &&
    isCount(g.blueScore) &&
    typeof g.blueWork === 'bigint' &&
    g.blueWork >= 0n &&
    (g.selectedParent === null || idPattern.test(g.selectedParent)) &&
    ids.every((id) => idPattern.test(id)) &&
    [...g.bluesAnticoneSizes.values()].every(isCount);
  if (!ok) throw new TrustedDataError('malformed', `block ${at} of the trusted data is malformed`);
}

function checkHeader(params: NetworkParams, header: BlockHeader, nowMs: number, id: BlockId): void {
  // Genesis is the network's own (its hash is fixed by the parameters), not mined.
  if (id === toHex(genesisHash(params))) return;
  try {
    validatePow(blockHash(header), validateHeaderInIsolation(header, params, nowMs));
  } catch (error) {
    if (error instanceof BlockRuleError) throw new TrustedDataError('header-invalid', `header ${id}: ${error.message}`, { rule: error.rule });
    throw error;
  }
}

/** The GHOSTDAG data against the header and against the blocks of the set it names (those before it). */
function checkGhostdag(params: NetworkParams, checked: CheckedBlock, known: ReadonlyMap<BlockId, CheckedBlock>): void {
  const { id, block } = checked;
  const { header, ghostdag: g } = block;
  const bad = (why: string): never => {
    throw new TrustedDataError('ghostdag-inconsistent', `block ${id}: ${why}`);
  };
  if (g.blueScore !== header.blueScore || g.blueWork !== header.blueWork) {
    throw new TrustedDataError('ghostdag-header-mismatch', `block ${id}: GHOSTDAG data says blue score ${g.blueScore} and blue work ${g.blueWork}, its header ${header.blueScore} and ${header.blueWork}`);
  }
  const merged = [...g.mergesetBlues, ...g.mergesetReds];
  if (new Set(merged).size !== merged.length || merged.includes(id)) bad('its mergeset lists a block twice, or itself');
  if (merged.length > params.mergesetSizeLimit || g.mergesetBlues.length > params.ghostdagK + 1) bad(`a mergeset of ${merged.length} with ${g.mergesetBlues.length} blues breaks k or the size limit`);
  for (const [blue, size] of g.bluesAnticoneSizes) if (size > params.ghostdagK) bad(`blue ${blue} has an anticone of ${size} > k`);
  if (g.selectedParent === null) {
    if (id !== toHex(genesisHash(params)) || block.height !== 0 || g.blueScore !== 0 || merged.length > 0) bad('only genesis has no selected parent');
    return;
  }
  const parents = header.parents.map(toHex);
  if (!parents.includes(g.selectedParent) || g.mergesetBlues[0] !== g.selectedParent) bad('its selected parent is not a parent, or not its first blue');
  const sp = known.get(g.selectedParent);
  if (sp === undefined) {
    if (block.height === 0) bad('height 0 is genesis');
    return;
  }
  const spData = sp.block.ghostdag;
  for (const parent of parents) {
    const p = known.get(parent);
    if (p && compareBlueWork({ id: parent, blueWork: p.block.ghostdag.blueWork }, { id: sp.id, blueWork: spData.blueWork }) > 0) bad(`parent ${parent} outweighs its selected parent`);
  }
  if (block.height !== sp.block.height + 1) bad(`height ${block.height}, its selected parent's is ${sp.block.height}`);
  if (g.blueScore !== spData.blueScore + g.mergesetBlues.length) bad(`blue score ${g.blueScore} is not its selected parent's plus ${g.mergesetBlues.length} blues`);
  if (header.daaScore !== sp.block.header.daaScore + merged.length) bad(`DAA score ${header.daaScore} is not its selected parent's plus its mergeset of ${merged.length}`);
  const blues = g.mergesetBlues.map((b) => known.get(b));
  if (blues.every((b) => b !== undefined)) {
    const work = blues.reduce((sum, b) => sum + b!.work, spData.blueWork);
    if (work !== g.blueWork) bad(`blue work ${g.blueWork} is not its selected parent's plus its blues' work (${work})`);
  }
}

/** Every check that needs no engine; returns the blocks with their ids, hashes and work. */
export function checkTrustedData(params: NetworkParams, trusted: TrustedData, expectedPoint: Uint8Array, nowMs: number, verifier: WitnessVerifier): CheckedTrustedData {
  if (!trusted || !Array.isArray(trusted.blocks) || trusted.blocks.length === 0 || trusted.pruningPoint?.length !== 32) {
    throw new TrustedDataError('malformed', 'trusted data needs a 32-byte pruning point and at least one block');
  }
  const pointId = toHex(trusted.pruningPoint);
  if (pointId !== toHex(expectedPoint)) throw new TrustedDataError('pruning-point-mismatch', `the trusted data is for ${pointId}, not the proven pruning point ${toHex(expectedPoint)}`);
  const known = new Map<BlockId, CheckedBlock>();
  const blocks: CheckedBlock[] = [];
  let previous: CheckedBlock | undefined;
  trusted.blocks.forEach((block, at) => {
    checkShape(block, at);
    const hash = blockHash(block.header);
    const id = toHex(hash);
    if (known.has(id)) throw new TrustedDataError('duplicate', `block ${id} is in the trusted data twice`);
    checkHeader(params, block.header, nowMs, id);
    const checked: CheckedBlock = { id, hash, block, work: workOfBits(block.header.bits) };
    if (previous && compareBlueWork({ id: previous.id, blueWork: previous.block.ghostdag.blueWork }, { id, blueWork: block.ghostdag.blueWork }) >= 0) {
      throw new TrustedDataError('order', `block ${id} comes after ${previous.id}, which has more blue work`);
    }
    checkGhostdag(params, checked, known);
    if (block.transactions !== undefined) {
      try {
        validateBodyInIsolation({ header: block.header, transactions: block.transactions }, params, verifier);
      } catch (error) {
        if (error instanceof BlockRuleError) throw new TrustedDataError('body-invalid', `block ${id}: ${error.message}`, { rule: error.rule });
        throw error;
      }
    }
    known.set(id, checked);
    blocks.push(checked);
    previous = checked;
  });
  const point = known.get(pointId);
  if (point === undefined) throw new TrustedDataError('pruning-point-mismatch', `the pruning point ${pointId} is not among the trusted blocks`);
  return { blocks, point };
}

export interface AroundPointOptions {
  /**
   * A header-only chain (the tab's light chain, src/light/) takes the blocks without transactions: P and its anticone
   * need not carry them. Nothing below P may carry any either way.
   */
  readonly headersOnly?: boolean;
}

/**
 * With the blocks in the engine: nothing in P's future; P and its anticone carry their transactions (unless
 * `headersOnly`) and nothing below P does; P's chain reaches trustedChainDepth below the highest chain block every
 * anticone block has in its past.
 */
export function checkAroundPoint(params: NetworkParams, engine: GhostdagEngine, data: CheckedTrustedData, options: AroundPointOptions = {}): void {
  const bodies = options.headersOnly !== true;
  const pointId = data.point.id;
  const anticone: BlockId[] = [];
  for (const { id, block } of data.blocks) {
    if (id === pointId) continue;
    if (engine.isDagAncestorOf(pointId, id)) throw new TrustedDataError('not-anticone', `block ${id} is in the pruning point's future`);
    const below = engine.isDagAncestorOf(id, pointId);
    if (!below) anticone.push(id);
    if (below && block.transactions !== undefined) throw new TrustedDataError('malformed', `block ${id} below the pruning point carries transactions`);
    if (bodies && !below && block.transactions === undefined) throw new TrustedDataError('body-invalid', `block ${id} of the pruning point's anticone comes without its transactions`);
  }
  if (bodies && data.point.block.transactions === undefined) throw new TrustedDataError('body-invalid', 'the pruning point comes without its transactions');
  const byId = new Map(data.blocks.map((b) => [b.id, b]));
  const chain: CheckedBlock[] = [];
  let common: number | undefined;
  for (let walk: BlockId | null = pointId; walk !== null; walk = engine.get(walk)!.selectedParent) {
    const block = byId.get(walk)!;
    chain.push(block);
    if (common === undefined && anticone.every((a) => engine.isDagAncestorOf(block.id, a))) common = block.block.height;
  }
  const lowest = chain[chain.length - 1]!.block.height;
  const needed = common === undefined ? 0 : Math.max(0, common - trustedChainDepth(params));
  if (common === undefined || lowest > needed) {
    throw new TrustedDataError('chain-short', `the pruning point's chain reaches height ${lowest}; the blocks above it read down to height ${needed}`);
  }
  // A blue of a chain block has at most k chain blocks in its anticone, so the blues of every chain block k + 1
  // heights above the lowest clear the lowest's blue score: the set holds them all, or its reachability has holes.
  for (const block of chain) {
    if (block.block.height < lowest + params.ghostdagK + 1) break;
    const missing = block.block.ghostdag.mergesetBlues.find((blue) => !byId.has(blue));
    if (missing !== undefined) throw new TrustedDataError('incomplete', `blue ${missing} of chain block ${block.id} is not in the trusted data`);
  }
}
