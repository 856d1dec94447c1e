/**
 * The ledger as the chain's state machine (src/chain/state-port.ts): the rows a block's acceptance writes, previews
 * for block templates, the chain-move rows, pruning and the join at a pruning point, each over LedgerState.
 */
import { rulesV2Active } from '../consensus/activation.ts';
import type { IndexedBlock } from '../chain/block-index.ts';
import type { BlockStateInput, ChainStateMachine, PreparedBlockState } from '../chain/state-port.ts';
import { TrustedDataError } from '../chain/trusted-errors.ts';
import type { NetworkParams } from '../consensus/params.ts';
import type { KvOp, KvStore } from '../storage/kv.ts';
import { concatBytes, toHex } from '../util/bytes.ts';
import { encodeAcceptanceRecord } from './acceptance-record.ts';
import type { Account } from './account.ts';
import { emptyStoredAccount } from './account-codec.ts';
import { checkJoinRecord, committedTotals } from './join-record.ts';
import { ledgerPreviewCacheMax } from './ledger-limits.ts';
import { ledgerKeys } from './ledger-rows.ts';
import { acceptOnto, publicAccount, readAccountAt, type Acceptance, type LedgerState } from './ledger-virtual.ts';
import { receiptRows } from './receipt-rows.ts';
import { isEmptyHash } from './trie-hash.ts';
import type { StateTrie } from './trie.ts';
import { chainMoveRows, inclusionRows } from './tx-index.ts';

/**
 * A chain joined at `block` (docs/pruning-proof.md "Trusted data") accepts its children's mergesets onto its state and
 * the point's running totals (emission is capped by them): from rules v2 on those the point's state commits to
 * (checkJoinRecord), before it the record as the trusted data gave it. The state must have been imported first.
 */
function joinRows(store: KvStore, trie: StateTrie, params: NetworkParams, block: IndexedBlock, record: Uint8Array | undefined): KvOp[] {
  const root = block.header.stateRoot;
  if (!isEmptyHash(root) && !store.has(concatBytes(ledgerKeys.trieprefix, root))) {
    throw new TrustedDataError('state-missing', `the state ${toHex(root)} of the pruning point is not in the store: import it first`);
  }
  const kept = checkJoinRecord(params, block.header, record, () => committedTotals(trie, root));
  const value = rulesV2Active(params, block.header.daaScore) ? encodeAcceptanceRecord(kept) : record!;
  return [{ type: 'put', key: ledgerKeys.acceptance(block.hash), value }];
}

/**
 * Everything a block's state depends on, as the previews' cache key: the mergeset in order (selected parent first),
 * its blues, the miner, the DAA score. prepareBlock trusts a hit for consensus, so nothing acceptOnto reads is left out.
 */
const previewKey = (input: BlockStateInput): string =>
  `${input.mergeset.join(',')}|${input.ghostdag.mergesetBlues.join(',')}|${input.miner ? toHex(input.miner) : '-'}|${input.daaScore}`;

/**
 * A block's acceptance as the rows of its batch: trie nodes, its record, inclusions, receipts, the pruning log. A
 * block this node mined has the input of the template it was built from: the preview's acceptance and trie update
 * are taken as they are (the state depends on the input alone) instead of computed a second time.
 */
function prepareBlock(state: LedgerState, ...[input, block]: Parameters<ChainStateMachine['prepareBlock']>): PreparedBlockState {
  const { reads } = state;
  reads.rememberTransactions(block.id, block.transactions);
  const { acceptance, trieUpdate } = state.previews.find((p) => p.key === previewKey(input))?.value ?? acceptAndUpdate(state, input);
  const { result, record } = acceptance;
  const { root } = trieUpdate;
  const ops = [...trieUpdate.ops];
  reads.rememberRecord(block.id, record);
  ops.push({ type: 'put', key: ledgerKeys.acceptance(block.hash), value: encodeAcceptanceRecord(record) });
  ops.push(...inclusionRows(block.hash, block.transactions));
  ops.push(...receiptRows(block.hash, result.blocks, reads));
  const log = state.pruningOn ? state.pruning.writeLogRow(block.hash, ops) : undefined;
  if (log) ops.push(log);
  return { stateRoot: root, ops };
}

function acceptAndUpdate(state: LedgerState, input: BlockStateInput): { acceptance: Acceptance; trieUpdate: { root: Uint8Array; ops: readonly KvOp[] } } {
  const acceptance = acceptOnto(state, input);
  return { acceptance, trieUpdate: state.trie.applyUpdates(acceptance.parentRoot, acceptance.updates) };
}

/** A would-be block's state root and accounts (block templates), cached for repeated identical asks and for prepareBlock. */
function previewBlock(state: LedgerState, input: BlockStateInput): ReturnType<ChainStateMachine['previewBlock']> {
  const key = previewKey(input);
  const cached = state.previews.find((p) => p.key === key);
  if (cached) return cached.value;
  const { acceptance, trieUpdate } = acceptAndUpdate(state, input);
  const read = readAccountAt(state, acceptance.parentRoot);
  const accounts = {
    account: (address: Uint8Array): Account =>
      publicAccount(acceptance.result.changes.get(toHex(address))?.account ?? read(address) ?? emptyStoredAccount, input.daaScore),
  };
  const value = { stateRoot: trieUpdate.root, accounts, acceptance, trieUpdate };
  state.previews.unshift({ key, value });
  state.previews.length = Math.min(state.previews.length, ledgerPreviewCacheMax);
  return value;
}

export function ledgerMachine(state: LedgerState): ChainStateMachine {
  const { chain, store, trie, reads, pruning } = state;
  return {
    prepareBlock: (input, block) => prepareBlock(state, input, block),
    previewBlock: (input) => previewBlock(state, input),
    chainMoved(removed, added, cause) {
      const { ops, event } = chainMoveRows(reads, removed, added);
      state.pendingEvents.set(cause, event);
      return ops;
    },
    pruneState: (round) => pruning.pruneState(round),
    pruneRows: (chainBlock, merged) => pruning.pruneRows(chainBlock, merged),
    pruningPointRecord: (block) => store.get(ledgerKeys.acceptance(block.hash)),
    joinAt(block, record, carried) {
      const ops = joinRows(store, trie, chain.params, block, record);
      // Their transactions are found by hash as on the node they came from (accepted by the blocks above the point).
      for (const body of carried) ops.push(...inclusionRows(body.hash, reads.transactions(body.id)));
      return ops;
    },
  };
}
