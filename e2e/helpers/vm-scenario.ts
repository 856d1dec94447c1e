// One fixed sequence of contract calls (deploys, calls, every failure), run the same way in Node and, bundled, in
// Chromium (e2e/vm-golden.spec.ts): the transcripts must be identical — gas, writes, events, return data, and the
// BLAKE3 of every prepared module. Pure: it imports only src/vm and byte helpers.
import { blake3 } from '../../src/crypto/blake3.ts';
import { fromHex, toHex } from '../../src/util/bytes.ts';
import { encodeAbiValues, type AbiValue } from '../../src/vm/abi.ts';
import { execute } from '../../src/vm/execute.ts';
import type { ContractStoragePort } from '../../src/vm/host-functions.ts';
import { prepare } from '../../src/vm/prepare.ts';

export interface VmTranscriptEntry {
  readonly call: string;
  readonly status: string;
  readonly gasUsed: string;
  readonly message?: string;
  readonly returnData?: string;
  readonly writes?: string[];
  readonly events?: string[];
}

const alice = new Uint8Array(33).fill(0xa1);
const bob = new Uint8Array(33).fill(0xb0);
const u64 = (value: bigint): AbiValue => ({ type: 'u64', value });
const address = (value: Uint8Array): AbiValue => ({ type: 'address', value });

type Step = [contract: string, entry: string, args: AbiValue[], caller: Uint8Array, gasLimit: bigint];
const steps: Step[] = [
  ['counter', 'init', [u64(5n)], alice, 5_000_000n],
  ['counter', 'increment', [], bob, 5_000_000n],
  ['counter', 'add', [u64(1n << 40n)], alice, 5_000_000n],
  ['counter', 'get', [], alice, 5_000_000n],
  ['counter', 'increment', [], alice, 30_000n],
  ['token', 'init', [u64(1_000_000n)], alice, 5_000_000n],
  ['token', 'transfer', [address(bob), u64(250n)], alice, 5_000_000n],
  ['token', 'transfer', [address(alice), u64(251n)], bob, 5_000_000n],
  ['token', 'transfer', [u64(1n)], alice, 5_000_000n],
  ['token', 'balance_of', [address(bob)], alice, 5_000_000n],
  ['token', 'total_supply', [], alice, 5_000_000n],
  ['token', 'mint', [], alice, 5_000_000n],
  ['faulty', 'spin', [u64(27n)], alice, 5_000_000n],
  ['faulty', 'spin', [u64(837_799n)], alice, 5_000_000n],
  ['faulty', 'loop_forever', [], alice, 3_000_000n],
  ['faulty', 'recurse', [u64(100n)], alice, 5_000_000n],
  ['faulty', 'recurse', [u64(1_000_000n)], alice, 1_000_000_000n],
  ['faulty', 'write_then_revert', [], alice, 5_000_000n],
  ['faulty', 'divide_by_zero', [u64(0n)], alice, 5_000_000n],
  ['faulty', 'divide_by_zero', [u64(4n)], alice, 5_000_000n],
];

function memoryPort(entries: Map<string, Uint8Array>): ContractStoragePort {
  return { get: (variable, key) => entries.get(`${variable}/${toHex(key)}`) };
}

/** Runs the scenario over the example contracts' bytes (hex by name); the transcript is plain JSON. */
export function runVmScenario(contractsHex: Record<string, string>): VmTranscriptEntry[] {
  const out: VmTranscriptEntry[] = [];
  const states = new Map<string, Map<string, Uint8Array>>();
  for (const [name, hex] of Object.entries(contractsHex).sort(([a], [b]) => (a < b ? -1 : 1))) {
    out.push({ call: `prepare ${name}`, status: toHex(blake3(prepare(fromHex(hex)).code)), gasUsed: '0' });
    states.set(name, new Map());
  }
  for (const [contract, entry, args, caller, gasLimit] of steps) {
    const state = states.get(contract)!;
    const r = execute({
      prepared: prepare(fromHex(contractsHex[contract]!)),
      entry,
      deploy: entry === 'init',
      input: encodeAbiValues(args),
      context: { caller, self: new Uint8Array(33).fill(0xcc), value: 0n, blockHeight: 100n, blockTimestamp: 1_700_000_000n },
      storage: memoryPort(state),
      gasLimit,
    });
    const call = `${contract}.${entry}`;
    if (r.status === 'ok') {
      for (const w of r.writes) {
        const k = `${w.variable}/${toHex(w.key)}`;
        if (w.value === undefined) state.delete(k);
        else state.set(k, w.value);
      }
      out.push({
        call,
        status: r.status,
        gasUsed: String(r.gasUsed),
        returnData: toHex(r.returnData),
        writes: r.writes.map((w) => `${w.variable}/${toHex(w.key)}=${w.value === undefined ? '-' : toHex(w.value)}`),
        events: r.events.map((e) => `${toHex(e.topic)}:${toHex(e.data)}`),
      });
    } else {
      out.push({ call, status: r.status, gasUsed: String(r.gasUsed), ...(r.status === 'revert' ? { message: r.message } : {}) });
    }
  }
  return out;
}
