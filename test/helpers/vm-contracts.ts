// The example contracts (assembly/contracts/) as built bytes, building them first on a fresh checkout, and a small
// in-memory contract storage that commits a call's writes the way the ledger will.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContractStoragePort, StorageWrite } from '../../src/vm/host-functions.ts';
import { toHex } from '../../src/util/bytes.ts';
import { repoRoot } from '../vectors.ts';

export type ContractName = 'counter' | 'token' | 'faulty' | 'escrow';
const names: ContractName[] = ['counter', 'token', 'faulty', 'escrow'];
const path = (name: ContractName): string => join(repoRoot, 'build/wasm/contracts', `${name}.wasm`);

export function contractBytes(name: ContractName): Uint8Array {
  if (!names.every((n) => existsSync(path(n)))) {
    execFileSync(process.execPath, ['assembly/contracts/build-contracts.mjs'], { cwd: repoRoot, stdio: 'ignore' });
  }
  return new Uint8Array(readFileSync(path(name)));
}

export interface MemoryStorage extends ContractStoragePort {
  commit(writes: readonly StorageWrite[]): void;
  readonly entries: Map<string, Uint8Array>;
  reads: number;
}

export function memoryStorage(): MemoryStorage {
  const entries = new Map<string, Uint8Array>();
  const storage: MemoryStorage = {
    entries,
    reads: 0,
    get(variable, key) {
      storage.reads++;
      return entries.get(`${variable}/${toHex(key)}`);
    },
    commit(writes) {
      for (const w of writes) {
        const k = `${w.variable}/${toHex(w.key)}`;
        if (w.value === undefined) entries.delete(k);
        else entries.set(k, w.value);
      }
    },
  };
  return storage;
}

/** Gas used by each example call of test/unit/vm/vm-contracts.test.ts, pinned (prepare version 1, AssemblyScript 0.28). */
export const goldenGas = {
  counterInit: 42_880n,
  counterIncrement: 28_750n,
  counterGet: 19_955n,
  tokenInit: 82_547n,
  tokenTransfer: 71_957n,
  tokenTransferTooMuch: 25_958n,
  tokenBalanceOf: 24_566n,
  faultySpin27: 19_001n,
  faultyRecurse100: 18_972n,
  faultyWriteThenRevert: 43_595n,
  faultyDivideByZero: 16_484n,
};
