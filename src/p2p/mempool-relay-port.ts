/**
 * The mempool as transaction relay's port (relay.ts `TxRelayPort`): peers' transactions go through `add` (the
 * pool's admission, its typed rejection on failure), and every admitted transaction — from RPC or from a peer — is
 * announced, and the node's own again while they wait. The id is the pool's: BLAKE3 of the canonical bytes (the codec's txHash).
 */
import type { PoolEntry } from '../mempool/entry.ts';
import type { Mempool } from '../mempool/mempool.ts';
import type { TxRelayPort } from './relay.ts';

/** `rebroadcasts`: the node's own pooled transactions, announced again (src/mempool/rebroadcast.ts). */
export function mempoolRelayPort(mempool: Mempool, rebroadcasts?: (listener: (entry: PoolEntry) => void) => () => void): TxRelayPort {
  return {
    submitRaw: (bytes) => mempool.add(bytes),
    onAdded(callback) {
      const unsubscribeAdded = mempool.subscribe((event) => {
        if (event.type === 'added') callback({ hash: event.entry.hash, raw: event.entry.bytes });
      });
      const unsubscribeAgain = rebroadcasts?.((entry) => callback({ hash: entry.hash, raw: entry.bytes }));
      return () => {
        unsubscribeAdded();
        unsubscribeAgain?.();
      };
    },
  };
}
