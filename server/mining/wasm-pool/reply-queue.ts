/** One worker's replies to the Wasm pool (server/mining/wasm-pool.ts), in order, with its failure. */
import type { Worker } from 'node:worker_threads';
import { MiningError } from '../../../src/mining/errors.ts';
import type { PoolReply } from './messages.ts';

export interface ReplyQueue {
  /** The worker's next reply; rejects on a worker error reply, a crash or an exit. */
  next(): Promise<PoolReply>;
  fail(error: Error): void;
}

/** Replies of one worker in order (a worker answers one message at a time). */
export function createReplyQueue(worker: Worker): ReplyQueue {
  const buffered: PoolReply[] = [];
  const waiting: { resolve: (r: PoolReply) => void; reject: (e: Error) => void }[] = [];
  let failure: Error | null = null;
  const fail = (error: Error): void => {
    failure ??= error;
    for (const w of waiting.splice(0)) w.reject(failure);
  };
  worker.on('message', (reply: PoolReply) => {
    if ('error' in reply) return fail(new MiningError(`wasm pool worker: ${reply.error}`));
    const w = waiting.shift();
    if (w) w.resolve(reply);
    else buffered.push(reply);
  });
  worker.on('error', (error) => fail(new MiningError(`wasm pool worker crashed: ${error.message}`, { cause: error })));
  worker.on('exit', (code) => fail(new MiningError(`wasm pool worker exited with code ${code}`)));
  return {
    next() {
      const reply = buffered.shift();
      if (reply) return Promise.resolve(reply);
      if (failure) return Promise.reject(failure);
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    fail,
  };
}
