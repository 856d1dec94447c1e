/**
 * Contract VM throughput (issue 16, docs/performance.md "Contract VM"), all in one run:
 *   1. the token's transfer call (prepare cached, fresh instance per call, storage in memory), calls/s, against an
 *      equivalent ERC-20 transfer on @ethereumjs/evm with in-memory state (bench/evm-erc20.ts), target ≥ 10×, in
 *      alternating rounds (the median round of each side);
 *   2. metered against unmetered execution of compute-heavy code: a doubly recursive fib (call-heavy) and a tight
 *      countdown loop, the original module against its instrumented one with unlimited gas;
 *   3. prepare() throughput in MB/s over the example contracts, uncached.
 *
 *   npx tsx bench/contracts.ts
 */
import { encodeAbiValues } from '../src/vm/abi.ts';
import { execute } from '../src/vm/execute.ts';
import { memoryImport } from '../src/vm/host-abi.ts';
import { createErc20Bench } from './evm-erc20.ts';
import { prepare, prepareModule } from '../src/vm/prepare.ts';
import { contractBytes, memoryStorage } from '../test/helpers/vm-contracts.ts';
import { I32, I64, wasmModule } from '../test/helpers/wasm-module.ts';

const alice = new Uint8Array(33).fill(0xa1);
const bob = new Uint8Array(33).fill(0xb0);
const context = { caller: alice, self: new Uint8Array(33).fill(0xcc), value: 0n, blockHeight: 1n, blockTimestamp: 1n };

function timed(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

// 1. Token transfers.
const token = prepare(contractBytes('token'));
const storage = memoryStorage();
const init = execute({ prepared: token, entry: 'init', deploy: true, input: encodeAbiValues([{ type: 'u64', value: 10n ** 12n }]), context, storage, gasLimit: 10_000_000n });
if (init.status !== 'ok') throw new Error('token init failed');
storage.commit(init.writes);
const input = encodeAbiValues([{ type: 'address', value: bob }, { type: 'u64', value: 1n }]);
const transfer = (): void => {
  const r = execute({ prepared: token, entry: 'transfer', input, context, storage, gasLimit: 1_000_000n });
  if (r.status !== 'ok') throw new Error(`transfer: ${r.status}`);
  storage.commit(r.writes);
};
const erc20 = await createErc20Bench();
for (let i = 0; i < 500; i++) transfer();
for (let i = 0; i < 500; i++) await erc20.transfer();

// Alternating rounds, so that other work on the box slows both sides alike; each side's median round is reported.
const transferRounds = 7;
const weftCalls = 2_000;
const evmCalls = 200;
const weftRates: number[] = [];
const evmRates: number[] = [];
for (let r = 0; r < transferRounds; r++) {
  const weftMs = timed(() => {
    for (let i = 0; i < weftCalls; i++) transfer();
  });
  weftRates.push((weftCalls / weftMs) * 1000);
  const evmStart = performance.now();
  for (let i = 0; i < evmCalls; i++) await erc20.transfer();
  evmRates.push((evmCalls / (performance.now() - evmStart)) * 1000);
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const weftRate = median(weftRates);
const evmRate = median(evmRates);
console.log(`token transfer: ${Math.round(weftRate)} calls/s (${(1e6 / weftRate).toFixed(1)} µs/call), median of ${transferRounds} rounds of ${weftCalls}`);
console.log(`ERC-20 transfer on @ethereumjs/evm: ${Math.round(evmRate)} calls/s (${(1e6 / evmRate).toFixed(1)} µs/call), median of ${transferRounds} rounds of ${evmCalls}, alternating`);
console.log(`Weft token / EVM: ×${(weftRate / evmRate).toFixed(1)} (target ≥ 10)`);

// 2. Metered vs unmetered: fib(n) (recursive) and countdown(n) (a tight loop), exported (i32) -> i64.
const fibBody = [0x20, 0x00, 0x41, 0x02, 0x49, 0x04, 0x7e, 0x20, 0x00, 0xad, 0x05, 0x20, 0x00, 0x41, 0x01, 0x6b, 0x10, 0x00, 0x20, 0x00, 0x41, 0x02, 0x6b, 0x10, 0x00, 0x7c, 0x0b];
const loopBody = [0x42, 0x00, 0x21, 0x01, 0x03, 0x40, 0x20, 0x01, 0x20, 0x00, 0xad, 0x7c, 0x21, 0x01, 0x20, 0x00, 0x41, 0x01, 0x6b, 0x22, 0x00, 0x0d, 0x00, 0x0b, 0x20, 0x01];
const compute = wasmModule({
  types: [[[I32], [I64]]],
  funcs: [{ type: 0, code: fibBody }, { type: 0, locals: [[1, I64]], code: loopBody }],
  exports: [['fib', 0, 0], ['countdown', 0, 1]],
}) as Uint8Array<ArrayBuffer>;
const plain = new WebAssembly.Instance(new WebAssembly.Module(compute)).exports;
const meteredModule = prepareModule(compute, undefined, { keepExports: true });
const meteredMemory = new WebAssembly.Memory({ initial: meteredModule.memoryPages, maximum: meteredModule.memoryPages });
const metered = new WebAssembly.Instance(new WebAssembly.Module(meteredModule.code), { env: { [memoryImport]: meteredMemory } }).exports;
(metered.__weft_gas as WebAssembly.Global).value = 1n << 61n;
for (const [name, n] of [['fib', 27], ['countdown', 50_000_000]] as const) {
  const f = (e: WebAssembly.Exports) => e[name] as (n: number) => bigint;
  // Warm both up to the optimizing tier with the full input, then take the best of ten runs of each, alternating
  // so that a burst of other work on the box does not land on one side only.
  for (let i = 0; i < 3; i++) {
    f(plain)(n);
    f(metered)(n);
  }
  let a = Infinity;
  let b = Infinity;
  for (let i = 0; i < 10; i++) {
    a = Math.min(a, timed(() => f(plain)(n)));
    b = Math.min(b, timed(() => f(metered)(n)));
  }
  console.log(`${name}(${n}): unmetered ${a.toFixed(1)} ms, metered ${b.toFixed(1)} ms, overhead ×${(b / a).toFixed(2)} (target ≤ 2)`);
}

// 3. prepare() throughput, uncached.
const modules = (['counter', 'token', 'faulty'] as const).map(contractBytes);
const bytes = modules.reduce((n, m) => n + m.length, 0);
const rounds = 100;
const prepareMs = timed(() => {
  for (let i = 0; i < rounds; i++) for (const m of modules) prepareModule(m);
});
console.log(`prepare: ${((bytes * rounds) / 1e6 / (prepareMs / 1000)).toFixed(2)} MB/s (${((prepareMs / rounds / modules.length)).toFixed(2)} ms per contract, engine validation included)`);
