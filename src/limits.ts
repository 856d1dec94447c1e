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
/** A header with 10 parents and a 32-byte blueWork: headerBytesMin + 10·32 + 32. */
export const headerBytesMax = 490;

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
/** gRPC messages either way. */
export const grpcMessageBytesMax = rpcRequestBytesMax;
