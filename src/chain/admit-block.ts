/**
 * The pipeline's first stages, before any block data is read: header in isolation and PoW (validate-header.ts),
 * with the gates between them that decide whether the block is processed at all — already stored, refused before,
 * already waiting as an orphan, a refused parent, or parents still missing (it then waits in the orphan pool).
 */
import type { Block } from '../codec/block.ts';
import type { BlockId, GhostdagEngine } from '../consensus/ghostdag.ts';
import type { NetworkParams } from '../consensus/params.ts';
import { blockHash } from '../consensus/pow.ts';
import { toHex } from '../util/bytes.ts';
import type { AddBlockResult } from './chain-types.ts';
import { BlockRuleError } from './errors.ts';
import type { InvalidBlocks } from './invalid-blocks.ts';
import type { OrphanPool } from './orphan-pool.ts';
import { validateHeaderInIsolation, validatePow } from './validate-header.ts';

export interface AdmissionContext {
  readonly params: NetworkParams;
  readonly nowMs: number;
  readonly engine: GhostdagEngine;
  readonly invalid: InvalidBlocks;
  readonly orphans: OrphanPool;
}

/** A duplicate or an orphan is answered at once; an admitted block goes on to the later stages. */
export type Admission = Exclude<AddBlockResult, { status: 'accepted' }> | { readonly status: 'admitted'; readonly id: BlockId; readonly hash: Uint8Array };

/** Throws BlockRuleError when a rule is broken or the block (or a parent) was refused before. */
export function admitBlock(ctx: AdmissionContext, block: Block): Admission {
  const { engine, invalid, orphans } = ctx;
  const header = block.header;
  const target = validateHeaderInIsolation(header, ctx.params, ctx.nowMs);
  const hash = blockHash(header);
  const id = toHex(hash);
  if (engine.has(id)) return { status: 'duplicate', id };
  if (invalid.has(id, hash)) throw new BlockRuleError('context.parents.invalid', `block ${id} failed validation before`);
  if (orphans.has(id)) return { status: 'orphan', id, missing: header.parents.map(toHex).filter((p) => !engine.has(p)) };
  validatePow(hash, target);
  if (header.parents.some((p) => invalid.has(toHex(p), p))) {
    invalid.mark(id, hash, 'context.parents.invalid');
    throw new BlockRuleError('context.parents.invalid', 'a parent is a block that failed validation');
  }
  const missing = header.parents.map(toHex).filter((p) => !engine.has(p));
  if (missing.length > 0) {
    orphans.add(id, block, missing);
    return { status: 'orphan', id, missing };
  }
  return { status: 'admitted', id, hash };
}
