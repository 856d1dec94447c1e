/**
 * Bounds of the ledger (src/state/ledger*.ts, tx-index.ts). Consensus constants (emission, energy) live beside their
 * rules in src/consensus/emission.ts and src/state/energy.ts; these are resource bounds of one node.
 */

/** Acceptance records kept decoded in memory (each is a few hundred bytes plus one bit per merged transaction). */
export const ledgerRecordCacheBlocksMax = 1_024;
/** Blocks whose decoded transactions stay in memory: every block is merged within a few blocks of its arrival. */
export const ledgerTxCacheBlocksMax = 256;
/** The most entries one `getAddressHistory` call returns. */
export const ledgerHistoryLimitMax = 1_000;
/** Previews (template state roots) kept, keyed by mergeset and miner: a miner asks again every refresh. */
export const ledgerPreviewCacheMax = 4;
/** Inclusions of one transaction id read by `getTransaction` (the same bytes in many parallel blocks). */
export const ledgerInclusionsMax = 64;
/**
 * Decoded state-trie nodes kept in memory per generation (src/state/trie-node-cache.ts; at most twice this many held,
 * a few hundred bytes each): the live top of the trie and the nodes the last blocks wrote, so account reads of the
 * mempool, templates and acceptance walk memory, not LMDB.
 */
export const ledgerTrieNodeCacheMax = 131_072;
/** Accounts remembered per virtual view (cleared with it at every block): the pool reads each sender several times. */
export const ledgerVirtualAccountsMax = 65_536;
/**
 * State values (accounts, records) remembered at the tip's root (src/state/trie-value-cache.ts), emptied past this
 * many: each new block moves them along with its own batch, so the senders the mempool and acceptance read every block
 * cost a Map lookup, not a trie walk.
 */
export const ledgerTrieValueCacheMax = 262_144;
