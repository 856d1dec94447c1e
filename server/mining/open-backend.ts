/**
 * Picks the node's CPU PoW backend: the AssemblyScript Wasm kernel on worker threads (SIMD when V8 has it).
 * The Wasm files come from `npm run build`, which `npm start` and `npm test` run first.
 */
import type { PowBackend } from '../../src/mining/job.ts';
import type { Logger } from '../logger.ts';
import { createWasmPowPool } from './wasm-pool.ts';

export async function openPowBackend(threads: number, logger: Logger): Promise<PowBackend> {
  const pool = await createWasmPowPool({ threads });
  logger.debug({ backend: pool.name, threads }, 'pow backend ready');
  return pool;
}
