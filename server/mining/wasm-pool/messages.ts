/** The messages between the Wasm pool (server/mining/wasm-pool.ts) and its workers (server/mining/wasm-worker.ts). */
import type { MessagePort } from 'node:worker_threads';

/** What each worker starts with. */
export interface PoolWorkerData {
  readonly wasmBytes: Uint8Array;
  /** BigInt64Array(1): nonces hashed by every worker of the pool. */
  readonly hashCounter: SharedArrayBuffer;
  /** This worker's end of its continuous-mining channel. */
  readonly jobPort: MessagePort;
}

/** Main → worker on the job port: hash this from now on, or stop hashing. */
export type PoolMineMessage =
  | { readonly type: 'mine'; readonly jobId: number; readonly prePowHash: Uint8Array; readonly target: bigint; readonly nonceStart: bigint }
  | { readonly type: 'pause' };

/** Worker → main on the job port. */
export interface PoolFoundMessage {
  readonly type: 'found';
  readonly jobId: number;
  readonly nonce: bigint;
}

/** */
export interface PoolJobMessage {
  readonly id: number;
  readonly prePowHash: Uint8Array;
  readonly target: bigint;
  readonly nonceStart: bigint;
  readonly nonceCount: number;
  readonly batchNonces: number;
  readonly threadIndex: number;
  readonly threads: number;
  /** BigInt64Array(1): the lowest batch index known to hold a winner (the batch count while none is known). */
  readonly best: SharedArrayBuffer;
}

/** id -1 is the startup handshake. */
export type PoolReply =
  | { readonly id: number; readonly ready: true }
  | { readonly id: number; readonly winnerOffset: number | null; readonly hashes: number }
  | { readonly id: number; readonly error: string };
