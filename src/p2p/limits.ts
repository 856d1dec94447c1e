/**
 * Bounds of the P2P layer, each named with its unit last (docs/style.md habit 5). The Noise spec's own constants (65535-byte
 * messages, 16-byte tags) live beside the code that implements them in src/p2p/noise/.
 */

/** Largest application message (one p2p protocol message: type byte + payload), checked before buffering. */
export const p2pMessageBytesMax = 4 * 1024 * 1024;

/**
 * Largest frame accepted before the handshake completes. Weft's XX messages are 32, 96 and 64 bytes with empty
 * payloads; the slack leaves room for a small hello payload without letting an unauthenticated peer make us
 * buffer a full 64 KiB frame.
 */
export const p2pHandshakeFrameBytesMax = 1024;

/** Handshake payloads above this are refused (they are ignored in protocol version 1 anyway). */
export const p2pHandshakePayloadBytesMax = 512;

/** Each CipherState is rekeyed (Noise §11.3) after this many transport messages, on both ends in lockstep. */
export const p2pRekeyIntervalMessages = 65_536;

/** The whole XX handshake (1.5 round trips) must finish within this. */
export const p2pHandshakeTimeoutMs = 10_000;

/** Network names bound into the prologue ('mainnet', 'testnet', 'devnet') are at most this long in UTF-8. */
export const p2pNetworkNameBytesMax = 32;

/** Messages decrypted before the application registered its handler are held, at most this many. */
export const p2pPendingMessagesMax = 1024;

// --- Protocol messages, peers and sync (docs/p2p.md) ---

/** The p2p protocol version carried in `version` and bound into the Noise prologue. */
export const p2pProtocolVersion = 1;
/** Peers older than this are disconnected (not banned). */
export const p2pProtocolVersionMin = 1;
/** `version` message: network, agent, endpoints and tip fit well below this. */
export const p2pVersionMessageBytesMax = 4 * 1024;
/** User agent string in `version`. */
export const p2pUserAgentBytesMax = 256;
/** Items in one inv / getdata / notfound (Bitcoin's MAX_INV_SZ). */
export const p2pInvItemsMax = 50_000;
/** Entries in one addr message. */
export const p2pAddrEntriesMax = 1_000;
/** Host names in addr entries (a DNS name is at most 253 bytes). */
export const p2pHostBytesMax = 255;
/** Hashes in a block locator (exponentially spaced: 64 covers any chain length). */
export const p2pLocatorHashesMax = 64;
/** Headers in one `headers` message (Bitcoin's MAX_HEADERS_RESULTS). */
export const p2pHeadersPerMessageMax = 2_000;
/** Text of a `reject` message. */
export const p2pRejectTextBytesMax = 256;
/** Version/verack must complete within this after the Noise handshake. */
export const p2pVersionTimeoutMs = 10_000;
/** A ping is sent this often on an idle connection. */
export const p2pPingIntervalMs = 120_000;
/** No pong within this after a ping means disconnect (score 0). */
export const p2pPongTimeoutMs = 1_200_000;
/** A requested block batch or header page not answered within this is re-assigned; the peer is dropped. */
export const p2pRequestTimeoutMs = 60_000;
/** Outbound connections the node keeps (manual addnode peers included). */
export const p2pOutboundPeersMax = 8;
/** Inbound TCP connections accepted. */
export const p2pInboundPeersMax = 117;
/** Inbound browser (WebSocket bridge) connections accepted. */
export const p2pBrowserPeersMax = 64;
/** Address book entries kept and persisted. */
export const p2pAddressBookEntriesMax = 2_000;
/** Banned identities (IPs and NodeIDs) remembered; the oldest ban is forgotten first. */
export const p2pBanEntriesMax = 50_000;
/** Misbehaviour score at which a peer is disconnected and discouraged (Bitcoin Core's binary rule). */
export const p2pBanScoreThreshold = 100;
/** How long a discouraged identity is refused. */
export const p2pBanDurationMs = 24 * 60 * 60 * 1000;
/** Outbound reconnection backoff: first delay, doubled per failure up to the max. */
export const p2pReconnectDelayMinMs = 1_000;
export const p2pReconnectDelayMaxMs = 60_000;
/**
 * The cap for manual peers (`--addnode`): the operator's own links, a handful, each retry one TCP connect. When a
 * partition heals while each side stays connected inside, no peer comes back to reset the backoff (dialer.ts), so a
 * 60 s cap kept the links down for up to a minute (the lab's 60 s cut: 4.5 s) after the network returned.
 */
export const p2pManualReconnectDelayMaxMs = 2_000;
/** How often the peer manager looks for outbound slots to fill. */
export const p2pDialIntervalMs = 5_000;
/** Blocks asked for in one getdata during initial sync. */
export const p2pSyncBatchBlocks = 250;
/** Block batches in flight per peer during initial sync (≤ 1000 outstanding items per peer). */
export const p2pSyncBatchesPerPeerMax = 4;
/** Synced blocks handed to the chain in one macrotask before yielding: ~0.3 ms of validation each, so the event loop waits ≤ ~80 ms. */
export const p2pSyncBlocksPerTurnMax = 256;
/** Synced blocks handed to the chain whose store write has not settled yet; the download waits beyond this. */
export const p2pSyncUnsettledBlocksMax = 4_096;
/** Headers downloaded ahead of the bodies applied (bounds the sync queue's memory). */
export const p2pSyncHeadersAheadMax = 20_000;
/**
 * How long a transaction announcement waits before it leaves (Bitcoin Core's trickle, much shorter): the
 * announcements of that window go as one message a peer, and a peer that announced the same transaction to us
 * meanwhile is not told of it again. Costs a transaction ~50 ms a hop on average.
 */
export const p2pTxAnnounceDelayMs = 100;
/** Unsolicited non-connecting blocks (orphans nobody asked for) a peer may send: burst, then one per interval. */
export const p2pUnsolicitedOrphansBurst = 32;
export const p2pUnsolicitedOrphanRefillMs = 10_000;
/** Harmless anomalies (unknown types, duplicate invs, unrequested notfound): burst, then one per interval; excess dropped. */
export const p2pAnomaliesBurst = 200;
export const p2pAnomalyRefillMs = 100;
/** addr entries accepted from a peer: burst, then one per interval (Bitcoin Core's 0.1 addr/s). */
export const p2pAddrBurst = 1_000;
export const p2pAddrRefillMs = 10_000;
/** Block inventory items remembered per peer as already known to it (so we do not announce back). */
export const p2pKnownInventoryMax = 10_000;
/** Missing-parent requests in flight for orphans, per node. */
export const p2pOrphanParentRequestsMax = 1_000;
/** Sync progress is logged at most this often. */
export const p2pSyncLogIntervalMs = 2_000;
/** Window over which the sync rate (blocks/s) is measured. */
export const p2pSyncRateWindowMs = 10_000;

// --- Fast sync: pruning-point proofs and state snapshot chunks (docs/p2p.md "Fast sync") ---

/**
 * Distinct headers in one proof's table (docs/pruning-proof.md). At M = 1,000 a level holds ~2M = 2,000 headers
 * plus its merge sets, and a mainnet-age chain has a few dozen populated levels, so real proofs hold tens of
 * thousands; this bounds what a peer can make us decode.
 */
export const p2pPruningProofHeadersMax = 131_072;
/** Levels in a proof: 0..blockLevelMax (255). */
export const p2pPruningProofLevelsMax = 256;
/** Headers (indices into the table) listed for one level: 16 × 2M at mainnet's M = 1,000. */
export const p2pPruningProofLevelHeadersMax = 32_768;
/** The encoded proof (table and level lists), sent in pages: 131,072 headers of ~250 bytes is ~32 MiB. */
export const p2pPruningProofBytesMax = 64 * 1024 * 1024;
/**
 * Proof bytes in one `pruningproof` message. A mainnet proof is several times the 4 MiB session bound, so the
 * encoded proof is paged rather than given a larger per-message bound (which the assembler would have to buffer
 * before it knows the type); 1 MiB pages keep one answer as large as one block or one snapshot chunk.
 */
export const p2pPruningProofPageBytesMax = 1024 * 1024;
/**
 * Fast-sync requests served per peer (`getpruningproof` pages, `getsnapshotchunk`): a burst, then one per
 * interval — ~1 MiB each, so ~10 MiB/s per peer after the burst. Requests beyond the allowance wait for it.
 */
export const p2pFastSyncRequestsBurst = 32;
export const p2pFastSyncRequestRefillMs = 100;
/** Fast-sync requests a peer may have waiting for its allowance; beyond, they are dropped as anomalies. */
export const p2pFastSyncQueuedRequestsMax = 4;

/**
 * Blocks in one trusted-data set (docs/pruning-proof.md "Trusted data"): the pruning point's anticone plus the band of
 * its past down to trustedChainDepth chain blocks — ~2,642 chain blocks at mainnet's DAA window, times the few
 * mergeset members each has on a healthy network. The worst case (every mergeset full) is far above this; a set
 * that large is not one an honest node builds.
 */
export const p2pTrustedDataBlocksMax = 65_536;
/** Ids in one trusted block's mergeset lists and anticone-size map: above any network's mergesetSizeLimit (180). */
export const p2pTrustedMergesetIdsMax = 1_024;
/** The state machine's record of the pruning point beside the trusted blocks (the ledger's running totals). */
export const p2pTrustedStateRecordBytesMax = 4_096;
/** The encoded trusted data, paged like the proof (p2pPruningProofPageBytesMax a page). */
export const p2pTrustedDataBytesMax = 128 * 1024 * 1024;
