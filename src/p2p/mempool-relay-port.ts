/**
 * The mempool as transaction relay's port (relay.ts `TxRelayPort`): peers' transactions go through `add` (the
 * pool's admission, its typed rejection on failure — a never-acceptable one as a score-100 protocol error), and every admitted transaction — from RPC or from a peer — is
 * announced, and the node's own again while they wait. The id is the pool's: BLAKE3 of the canonical bytes (the codec's txHash).
 */
import type { PoolEntry } from '../mempool/entry.ts';
import { TransactionRejectedError, type RejectReason } from '../mempool/errors.ts';
import type { Mempool } from '../mempool/mempool.ts';
import { InvalidTransactionRelayedError } from './protocol-errors.ts';
import type { TxRelayPort } from './relay.ts';

/**
 * The refusals no state can ever lift (docs/security.md "Hostile peers"): the peer checked them before relaying, so
 * they are its fault (score 100). Every other refusal — a state rule (an escrow that does not exist, a nonce already
 * used, a balance), or policy (fee rate, a full pool) — an honest peer can cause while its view differs from ours:
 * relay.ts counts it as an anomaly.
 */
const neverAcceptable: ReadonlySet<RejectReason> = new Set(['bad_signature', 'wrong_chain']);

/** A pool refusal as relay judges a peer by: the never-acceptable ones become a score-100 protocol error. */
function peerTxRefusal(error: unknown): unknown {
  if (error instanceof TransactionRejectedError && neverAcceptable.has(error.reason)) return new InvalidTransactionRelayedError(error.reason, `tx refused (${error.reason}): ${error.message}`);
  return error;
}

/** `rebroadcasts`: the node's own pooled transactions, announced again (src/mempool/rebroadcast.ts). */
export function mempoolRelayPort(mempool: Mempool, rebroadcasts?: (listener: (entry: PoolEntry) => void) => () => void): TxRelayPort {
  return {
    submitRaw: (bytes) =>
      mempool.add(bytes).catch((error: unknown) => {
        throw peerTxRefusal(error);
      }),
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
