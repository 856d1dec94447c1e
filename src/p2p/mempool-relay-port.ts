/**
 * The mempool as transaction relay's port (relay.ts `TxRelayPort`): peers' transactions go through `add` (the
 * pool's admission, its typed rejection on failure), and every admitted transaction — from RPC or from a peer — is
 * announced. The id is the pool's: BLAKE3 of the canonical bytes (the codec's txHash).
 */
import type { Mempool } from '../mempool/mempool.ts';
import type { TxRelayPort } from './relay.ts';

export function mempoolRelayPort(mempool: Mempool): TxRelayPort {
  return {
    submitRaw: (bytes) => mempool.add(bytes),
    onAdded: (callback) =>
      mempool.subscribe((event) => {
        if (event.type === 'added') callback({ hash: event.entry.hash, raw: event.entry.bytes });
      }),
  };
}
