/**
 * The mempool's bounds (TigerBeetle style: unit last). Each has a default here; a node may pass tighter or looser
 * values through `MempoolLimits` (tests shrink them). docs/mempool.md explains each choice.
 */

/** Transactions held in the pool at once: ~8 MB of 162-byte transfers, about a minute of full blocks. */
export const mempoolTxCountMax = 50_000;
/** Encoded bytes held in the pool at once (every transaction's full encoding). */
const mempoolBytesMax = 16_000_000;
/**
 * Relay bound on one transaction, below consensus' txBytesMax (100 kB): the largest transfer (a 16-of-16 multisig
 * with a 256-byte memo) is 1,972 bytes; bigger kinds (contracts) will raise it when they exist.
 */
const mempoolTxBytesMax = 10_000;
/** The cheapest fee rate relayed: 1 base unit per encoded byte (Bitcoin Core's default is 1 sat/vB). */
const mempoolFeeRateMinUnitsPerByte = 1n;
/** A replacement at the same (from, nonce) must pay at least this much more fee, in percent (geth's price bump). */
const mempoolReplaceBumpPercentMin = 10n;
/** A transaction not accepted by a chain block within this age is dropped as expired (geth's 3 h lifetime). */
const mempoolTxAgeMaxMs = 3 * 60 * 60 * 1000;
/** Transactions one sender may have pending (executable and waiting) at once. */
const mempoolTxPerAddressMax = 64;
/** How far past the account's nonce a waiting transaction may be; bounds what a gap can hold hostage. */
const mempoolNonceAheadMax = 64n;
/** Hashes of dropped transactions remembered for `status()` (oldest forgotten first). */
const mempoolDroppedRememberedMax = 10_000;
/**
 * How often the node announces its own pooled transactions again (src/mempool/rebroadcast.ts): about thirty blocks,
 * so a transaction a peer missed waits at most that long for another chance.
 */
export const mempoolOwnTxRebroadcastMs = 30_000;
/** Transactions in one `addBatch` call: one verifier round trip, bounded so one caller cannot stall the pool. */
const mempoolBatchTxMax = 10_000;

export interface MempoolLimits {
  readonly txCountMax: number;
  readonly bytesMax: number;
  readonly txBytesMax: number;
  readonly feeRateMinUnitsPerByte: bigint;
  readonly replaceBumpPercentMin: bigint;
  readonly txAgeMaxMs: number;
  readonly txPerAddressMax: number;
  readonly nonceAheadMax: bigint;
  readonly droppedRememberedMax: number;
  readonly batchTxMax: number;
}

export const defaultMempoolLimits: MempoolLimits = Object.freeze({
  txCountMax: mempoolTxCountMax,
  bytesMax: mempoolBytesMax,
  txBytesMax: mempoolTxBytesMax,
  feeRateMinUnitsPerByte: mempoolFeeRateMinUnitsPerByte,
  replaceBumpPercentMin: mempoolReplaceBumpPercentMin,
  txAgeMaxMs: mempoolTxAgeMaxMs,
  txPerAddressMax: mempoolTxPerAddressMax,
  nonceAheadMax: mempoolNonceAheadMax,
  droppedRememberedMax: mempoolDroppedRememberedMax,
  batchTxMax: mempoolBatchTxMax,
});
