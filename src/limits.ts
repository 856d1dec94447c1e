/**
 * Every protocol bound in one place (TigerBeetle style: the unit is the last word of the name). Codecs and validators
 * import these; a bound that is not here is a bug. Other layers add their own sections below.
 */

// --- Headers (src/codec/header.ts, docs/consensus.md "Header layout") ---

/** At most 10 direct parents per block: Kaspa's value at one block a second (docs/design.md "Consensus"). */
export const headerParentsMax = 10;
/** blueWork is a 256-bit unsigned integer, written as a length byte and its minimal big-endian bytes. */
export const headerBlueWorkBytesMax = 32;
/** A header with 0 parents and blueWork 0: 2+1+32+32+8+4+8+8+1+33+1+8. */
export const headerBytesMin = 138;
/** A version 1 header with 10 parents and a 32-byte blueWork: headerBytesMin + 10·32 + 32. */
export const headerV1BytesMax = 490;
/**
 * Version 2's level runs (docs/pruning-proof.md "Header version 2") cover exactly levels 1..255: the top block level
 * of every Weft network, whose pow limit is 2^255 − 1 (src/consensus/block-level.ts).
 */
export const headerLevelsCovered = 255;
/**
 * Runs in one version 2 header. Neighbouring runs differ, and the level-L parents differ from the level-(L+1) ones only
 * when some block of the past sits at level exactly L, so an honest header has at most 1 + (the highest level of a
 * non-genesis block in its past) runs. Level 127 needs a PoW hash below 2^129, one in 2^126 hashes: 128 runs are out
 * of reach of any honest header, and the bound halves the worst case (255 runs would be 82 kB a header).
 */
export const headerLevelRunsMax = 128;
/**
 * The largest header: version 2 with 10 parents, 128 runs of 10 parents each, a 32-byte blueWork and the pruning
 * point: headerV1BytesMax + 1 + 128·(2 + 10·32) + 32 = 41,739. Honest headers are far smaller (a few runs of one to
 * a few parents above the level the difficulty puts every block at), but nothing a decoder accepts exceeds this.
 */
export const headerBytesMax = headerV1BytesMax + 1 + headerLevelRunsMax * (2 + headerParentsMax * 32) + 32;

// --- Blocks (src/codec/block.ts) ---

/** Bound on the whole encoded block (header, transaction count and every length-prefixed transaction). */
export const blockBytesMax = 1_000_000;
/** One encoded transaction. */
export const txBytesMax = 100_000;
/** Transactions in one block: 1 MB of ~100-byte transactions; bounds the decoder's allocation up front. */
export const blockTxCountMax = 10_000;
/** Mass of all of a block's transactions (src/kinds/mass.ts: bytes + 100 per signature operation + contract gas). */
export const blockMassMax = 2_000_000;

// --- Chain (src/chain/) ---

/** Blocks waiting for unknown parents; the oldest is evicted first. */
export const orphanBlocksMax = 1_000;
/** Hashes of blocks that failed validation, remembered so their descendants are refused at once. */
export const invalidBlocksMax = 10_000;
/**
 * Megabytes the chain's per-block caches (GHOSTDAG, reachability, block index, selected chain) may hold: `--cache-mb`.
 * The default leaves most of the seed's 4 GB minimum to the OS page cache (LMDB reads go through it) and the rest of
 * the node; src/chain/cache-budget.ts splits it between the caches.
 */
export const cacheMbDefault = 256;
/** The smallest budget `--cache-mb` accepts: below it, block processing thrashes (a reindex touches thousands of nodes). */
export const cacheMbMin = 16;
/**
 * Row deletes in one pruning batch (docs/storage.md "Pruning"): the longest a batch of the background pruner holds the
 * store's writer, so block commits queue behind at most this many deletes.
 */
export const pruneBatchOpsMax = 4_000;

// --- RPC: JSON-RPC, REST, WebSocket, gRPC (src/rpc/, server/http, server/ws, server/grpc; docs/api.md "Limits") ---

/** One HTTP body or WebSocket message: a 1 MB block as hex in submit_block is ~2 MB, so 4 MiB leaves room. Else 413. */
export const rpcRequestBytesMax = 4 * 1024 * 1024;
/** Calls in one JSON-RPC batch (geth allows 1,000; a tenth keeps one request's work bounded). */
export const rpcBatchCallsMax = 100;
/** get_transaction_history / REST page sizes. */
export const rpcHistoryLimitDefault = 50;
export const rpcHistoryLimitMax = 1_000;
/** sign_message / verify_message text. */
export const rpcMessageCharsMax = 10_000;
/** The seed's limit: subscriptions on one WebSocket connection; the next one gets -32005. */
export const wsSubscriptionsPerConnectionMax = 10;
/** Bytes a WebSocket may have queued (ws bufferedAmount) before the node closes it as a slow consumer. */
export const wsSendBufferBytesMax = 8 * 1024 * 1024;
/** Open WebSocket connections on port 8081. */
export const wsConnectionsMax = 10_000;
/** Selected-chain blocks the network statistics (hash rate, block time, GPU share, miners) are computed over. */
export const statsWindowBlocks = 600;
/** block_confirmations notifications cover the chain blocks this deep from the tip on each new block. */
export const confirmationsWatchDepthBlocks = 10;
/** gRPC messages either way: the same 4 MiB as a JSON-RPC request body (rpcRequestBytesMax). */
export const grpcMessageBytesMax = 4 * 1024 * 1024;

// --- Contract VM (src/vm/, docs/contracts.md "Limits"): prepare version 1. Far below every engine's own limits
// (wasmparser/JS-API: 50,000 locals, 1,000 params, 65,536 pages) so no engine refuses what prepare accepted. ---

/** A contract module: it must fit one transaction (txBytesMax) with room for the deploy envelope. */
export const vmModuleBytesMax = 64 * 1024;
/** One function body (locals declarations and code). */
export const vmFunctionBodyBytesMax = 64 * 1024;
/** Function types in the type section. */
export const vmTypesMax = 1_024;
/** Functions defined by the module (imports not counted). */
export const vmFunctionsMax = 4_096;
/** Declared locals of one function (parameters not counted); each is a frame slot (docs/contracts.md). */
export const vmLocalsMax = 256;
/** Parameters of one function type. */
export const vmParamsMax = 16;
/** Globals the module defines. */
export const vmGlobalsMax = 256;
/** Exports of the module. */
export const vmExportsMax = 256;
/** Entries of the one table (it cannot grow: table.grow is a reference-types op, refused). */
export const vmTableEntriesMax = 4_096;
/** Active element and data segments. */
export const vmSegmentsMax = 256;
/** Targets of one br_table. */
export const vmBrTableTargetsMax = 4_096;
/** Nested blocks, loops and ifs in one function. */
export const vmBlockDepthMax = 256;
/** Pages (64 KiB) of the one fixed memory: 16 pages = 1 MiB. */
export const vmMemoryPagesMax = 16;
/**
 * The deterministic stack budget in frame slots (docs/contracts.md "Stack budget"): a frame costs 8 + params + locals
 * + its maximum operand height. 16,384 slots allow at most 2,048 frames, far inside V8's measured 15,695 empty
 * frames or 120 frames of 1,024 locals (notes: 256 locals max gives at most 62 frames here).
 */
export const vmStackSlotsMax = 16_384;
/** Input (call parameters) of one call. */
export const vmInputBytesMax = 64 * 1024;
/** Return data of one call. */
export const vmReturnBytesMax = 64 * 1024;
/** A revert message (UTF-8) as kept in the result. */
export const vmRevertMessageBytesMax = 1_024;
/** A storage variable name: ASCII [A-Za-z0-9_]. */
export const vmVariableNameBytesMax = 64;
/** A storage key under a variable (empty for scalars). */
export const vmStorageKeyBytesMax = 256;
/** One stored value: with its version byte it must fit a state-trie value (stateValueBytesMax, 4,096). */
export const vmStorageValueBytesMax = 4_000;
/** Events one call may emit, their topic and data. */
export const vmEventsMax = 64;
export const vmEventTopicBytesMax = 64;
export const vmEventDataBytesMax = 4 * 1024;
/** Bytes one hash host call may read. */
export const vmHashInputBytesMax = 64 * 1024;
/** Prepared modules kept in memory, by (code hash, version); the oldest is evicted first. */
export const vmPreparedCacheEntriesMax = 256;
/** The gas limit of one contract transaction: a fifth of what a block's mass budget holds (src/kinds/mass.ts). */
export const contractTxGasLimitMax = 20_000_000;
/** A contract method name: an export name, ASCII [A-Za-z0-9_]. */
export const contractMethodBytesMax = 64;

// --- State snapshots (src/state/snapshot*.ts, docs/state-trie.md "Snapshots") ---

/**
 * Leaves in one snapshot chunk. With ~100-byte leaves a full chunk is ~0.8 MB, one p2p message well under
 * p2pMessageBytesMax (4 MiB), and 100,000 accounts take 13 chunks.
 */
export const snapshotChunkEntriesMax = 8_192;
/**
 * Encoded leaves of one chunk (32-byte key, u16 value length, value): stops a chunk of large values (contract
 * storage up to 4,096 bytes) at ~1 MiB. One leaf of the largest value always fits.
 */
export const snapshotChunkLeafBytesMax = 1024 * 1024;
