import { z } from 'zod';
import type { IndexedBlock } from '../../chain/block-index.ts';
import { toHash0x, toHex } from '../../util/bytes.ts';
import { assertNotPruned } from '../pruned.ts';
import { BlockNotFoundError, DataPrunedError, InvalidParamsError } from '../errors.ts';
import { defineMethod, type RpcCallContext } from '../method.ts';
import type { ChainView, LedgerView } from '../ports.ts';
import { blockResult, recordResult } from '../result-schemas.ts';
import { hashSchema, heightSchema, parseHex } from '../schemas.ts';
import { blockJson } from '../views.ts';

/** The block JSON of a known entry; its body is in the store unless the node pruned it (DataPrunedError then). */
/** With `ledger`, its contract transactions show the fee they paid once accepted (views.ts `withPaidFee`). */
export function renderBlock(chain: ChainView, entry: IndexedBlock, includeTransactions: boolean, ledger?: Pick<LedgerView, 'getTransaction'>): Record<string, unknown> {
  const block = chain.getBlock(entry.id);
  if (block === undefined) {
    assertNotPruned(chain, entry.id, `the body of block ${toHash0x(entry.hash)}`);
    throw new BlockNotFoundError(`block ${toHex(entry.hash)} has no stored body`);
  }
  return blockJson(chain, entry, block, includeTransactions, ledger && ((hash) => ledger.getTransaction(hash)?.receipt));
}

export function findBlock(ctx: RpcCallContext, by: { height?: number | undefined; hash?: string | undefined }): IndexedBlock {
  const { chain } = ctx.services;
  if (by.hash !== undefined) {
    const entry = chain.get(toHex(parseHex(by.hash)));
    if (entry === undefined) throw new BlockNotFoundError(`no block with hash ${by.hash.toLowerCase()}`);
    return entry;
  }
  const height = by.height!;
  const entry = chain.blockAtHeight(height);
  // A chain that joined at a pruning point has no chain index below its trusted blocks: that height is pruned data.
  const point = entry === undefined ? chain.pruning?.()?.pruningPoint : undefined;
  if (point !== undefined && height < point.height) {
    throw new DataPrunedError(`the block at height ${height}`, { hash: toHash0x(point.hash), blueScore: point.header.blueScore });
  }
  if (entry === undefined) {
    throw new BlockNotFoundError(`no block at height ${height} on the selected chain (tip height ${chain.selectedTip().height})`);
  }
  return entry;
}

/** By `height` (the block at that height on the virtual selected chain, docs/design.md "Consensus") or by `hash` (any known block). */
export const getBlock = defineMethod({
  name: 'get_block',
  summary: 'A block by selected-chain height or by hash, with its transactions unless include_transactions is false.',
  params: z.strictObject({
    height: heightSchema.optional(),
    hash: hashSchema.optional(),
    include_transactions: z.boolean().default(true),
  }),
  scope: 'public',
  result: recordResult(blockResult),
  run(params, ctx) {
    if ((params.height === undefined) === (params.hash === undefined)) {
      throw new InvalidParamsError('give exactly one of height or hash', [{ path: 'height|hash', message: 'exactly one is required' }]);
    }
    return renderBlock(ctx.services.chain, findBlock(ctx, params), params.include_transactions, ctx.services.ledger);
  },
});
