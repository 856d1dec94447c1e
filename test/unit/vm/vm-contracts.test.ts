// The example contracts (assembly/contracts/, built by asc) on the VM: deploy, call, state, every failure, and the
// gas each call uses pinned. A change to these numbers is a change to consensus (a new prepare version), or to the
// contracts or the asc version; either way it must be deliberate.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toHex } from '../../../src/util/bytes.ts';
import { decodeAbiValues, encodeAbiValues, type AbiValue } from '../../../src/vm/abi.ts';
import { execute, type CallResult } from '../../../src/vm/execute.ts';
import { prepare, prepareModule } from '../../../src/vm/prepare.ts';
import { I32, I64, wasmModule } from '../../helpers/wasm-module.ts';
import { contractBytes, goldenGas, memoryStorage, type ContractName, type MemoryStorage } from '../../helpers/vm-contracts.ts';

const alice = new Uint8Array(33).fill(0xa1);
const bob = new Uint8Array(33).fill(0xb0);
const self = new Uint8Array(33).fill(0xcc);
const u64 = (value: bigint): AbiValue => ({ type: 'u64', value });
const address = (value: Uint8Array): AbiValue => ({ type: 'address', value });

function call(name: ContractName, storage: MemoryStorage, entry: string, args: AbiValue[], options: { caller?: Uint8Array; gasLimit?: bigint } = {}): CallResult {
  const result = execute({
    prepared: prepare(contractBytes(name)),
    entry,
    deploy: entry === 'init',
    input: encodeAbiValues(args),
    context: { caller: options.caller ?? alice, self, value: 0n, blockHeight: 100n, blockTimestamp: 1_700_000_000n },
    storage,
    gasLimit: options.gasLimit ?? 5_000_000n,
  });
  if (result.status === 'ok') storage.commit(result.writes);
  return result;
}

const returned = (r: CallResult): AbiValue[] => (r.status === 'ok' ? decodeAbiValues(r.returnData) : []);
const le64 = (n: bigint): string => toHex(new Uint8Array(new BigUint64Array([n]).buffer));


describe('counter', () => {
  it('deploys with a start value, increments with an event, reads back', () => {
    const storage = memoryStorage();
    const init = call('counter', storage, 'init', [u64(5n)]);
    expect(init).toMatchObject({ status: 'ok', gasUsed: goldenGas.counterInit });
    expect(toHex(storage.entries.get('count/')!)).toBe(le64(5n));

    const increment = call('counter', storage, 'increment', []);
    expect(increment).toMatchObject({ status: 'ok', gasUsed: goldenGas.counterIncrement });
    expect(returned(increment)).toEqual([u64(6n)]);
    expect(increment.status === 'ok' && increment.events.map((e) => new TextDecoder().decode(e.topic))).toEqual(['incremented']);

    const get = call('counter', storage, 'get', []);
    expect(get).toMatchObject({ status: 'ok', gasUsed: goldenGas.counterGet, writes: [] });
    expect(returned(get)).toEqual([u64(6n)]);
  });
});

describe('token', () => {
  it('mints to the deployer, transfers, refuses an overdraft with its message and no changes', () => {
    const storage = memoryStorage();
    expect(call('token', storage, 'init', [u64(1_000_000n)])).toMatchObject({ status: 'ok', gasUsed: goldenGas.tokenInit });

    const transfer = call('token', storage, 'transfer', [address(bob), u64(250n)]);
    expect(transfer).toMatchObject({ status: 'ok', gasUsed: goldenGas.tokenTransfer });
    expect(returned(transfer)).toEqual([{ type: 'bool', value: true }]);
    expect(toHex(storage.entries.get(`balances/${toHex(alice)}`)!)).toBe(le64(999_750n));
    expect(toHex(storage.entries.get(`balances/${toHex(bob)}`)!)).toBe(le64(250n));
    const event = transfer.status === 'ok' ? transfer.events[0]! : undefined;
    expect(decodeAbiValues(event!.data)).toEqual([address(alice), address(bob), u64(250n)]);

    const before = new Map(storage.entries);
    const overdraft = call('token', storage, 'transfer', [address(alice), u64(251n)], { caller: bob });
    expect(overdraft).toEqual({ status: 'revert', gasUsed: goldenGas.tokenTransferTooMuch, message: 'insufficient balance' });
    expect(storage.entries).toEqual(before);

    const balance = call('token', storage, 'balance_of', [address(bob)]);
    expect(balance).toMatchObject({ status: 'ok', gasUsed: goldenGas.tokenBalanceOf });
    expect(returned(balance)).toEqual([u64(250n)]);
  });

  it('reverts on arguments of the wrong type', () => {
    const storage = memoryStorage();
    call('token', storage, 'init', [u64(10n)]);
    expect(call('token', storage, 'transfer', [u64(1n), u64(1n)])).toMatchObject({ status: 'revert', message: 'bad arguments' });
  });

  it('never uses more gas than its limit, and with enough gas always the same (fast-check)', () => {
    const storage = memoryStorage();
    call('token', storage, 'init', [u64(1_000n)]);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: goldenGas.tokenTransfer * 2n }), (gasLimit) => {
        const fresh = memoryStorage();
        for (const [k, v] of storage.entries) fresh.entries.set(k, v);
        const r = call('token', fresh, 'transfer', [address(bob), u64(1n)], { gasLimit });
        expect(r.gasUsed <= gasLimit).toBe(true);
        if (gasLimit >= goldenGas.tokenTransfer) expect(r).toMatchObject({ status: 'ok', gasUsed: goldenGas.tokenTransfer });
        else {
          expect(r).toEqual({ status: 'out_of_gas', gasUsed: gasLimit });
          expect(fresh.entries).toEqual(storage.entries);
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('faulty', () => {
  it('stops an infinite loop with storage writes on gas, keeping no write', () => {
    const storage = memoryStorage();
    expect(call('faulty', storage, 'loop_forever', [], { gasLimit: 3_000_000n })).toEqual({ status: 'out_of_gas', gasUsed: 3_000_000n });
    expect(storage.entries.size).toBe(0);
  });

  it('runs a busy loop under inline metering alone', () => {
    expect(call('faulty', memoryStorage(), 'spin', [u64(27n)])).toMatchObject({ status: 'ok', gasUsed: goldenGas.faultySpin27 });
    expect(call('faulty', memoryStorage(), 'spin', [u64(27n)], { gasLimit: goldenGas.faultySpin27 - 1n }).status).toBe('out_of_gas');
  });

  it('recurses within the budget, and stops unbounded recursion on it', () => {
    expect(call('faulty', memoryStorage(), 'recurse', [u64(100n)])).toMatchObject({ status: 'ok', gasUsed: goldenGas.faultyRecurse100 });
    expect(call('faulty', memoryStorage(), 'recurse', [u64(1_000_000n)], { gasLimit: 10n ** 9n }).status).toBe('stack_exhausted');
  });

  it('reverts its own write with its message, and traps on a division by zero', () => {
    const storage = memoryStorage();
    expect(call('faulty', storage, 'write_then_revert', [])).toEqual({ status: 'revert', gasUsed: goldenGas.faultyWriteThenRevert, message: 'changed my mind' });
    expect(call('faulty', storage, 'divide_by_zero', [u64(0n)])).toMatchObject({ status: 'trap', gasUsed: goldenGas.faultyDivideByZero });
    expect(storage.entries.size).toBe(0);
    expect(call('faulty', storage, 'divide_by_zero', [u64(4n)]).status).toBe('ok');
    expect(toHex(storage.entries.get('quotient/')!)).toBe(le64(25n));
  });
});

describe('escrow (holds value)', () => {
  // Value can only go to addresses of a known type (here standard).
  const beneficiary = Uint8Array.of(0, ...new Array(32).fill(0xbb));
  const run = (storage: MemoryStorage, entry: string, args: AbiValue[], caller: Uint8Array, value: bigint, balance: bigint): CallResult => {
    const result = execute({
      prepared: prepare(contractBytes('escrow')),
      entry,
      deploy: entry === 'init',
      input: encodeAbiValues(args),
      context: { caller, self, value, balance, blockHeight: 100n, blockTimestamp: 1_700_000_000n },
      storage,
      gasLimit: 5_000_000n,
    });
    if (result.status === 'ok') storage.commit(result.writes);
    return result;
  };

  it('holds the deploy value, releases it all to the beneficiary once, and only for the depositor', () => {
    const storage = memoryStorage();
    expect(run(storage, 'init', [address(beneficiary)], alice, 1_000n, 0n)).toMatchObject({ status: 'ok', transfers: [] });
    expect(returned(run(storage, 'held', [], alice, 0n, 1_000n))).toEqual([u64(1_000n)]);
    expect(run(storage, 'deposit', [], beneficiary, 500n, 1_000n)).toMatchObject({ status: 'ok', transfers: [] });
    expect(run(storage, 'release', [], beneficiary, 0n, 1_500n)).toMatchObject({ status: 'revert', message: 'only the depositor releases' });
    const released = run(storage, 'release', [], alice, 0n, 1_500n);
    expect(released).toMatchObject({ status: 'ok', transfers: [{ to: beneficiary, amount: 1_500n }] });
    expect(returned(released)).toEqual([u64(1_500n)]);
    expect(run(storage, 'refund', [], beneficiary, 0n, 0n)).toMatchObject({ status: 'revert', message: 'already settled' });
  });

  it('cannot send more than it holds: the host traps and nothing moves', () => {
    const sendFive = prepareModule(
      wasmModule({
        types: [[[], []], [[I32, I64], []]],
        imports: [['env', 'transfer_value', 0, [1]]],
        funcs: [{ type: 0, code: [0x41, 0x00, 0x42, 0x05, 0x10, 0x00] }],
        exports: [['run', 0, 1]],
      }),
    );
    const send = (value: bigint, balance: bigint) =>
      execute({ prepared: sendFive, entry: 'run', input: new Uint8Array(0), context: { caller: alice, self, value, balance, blockHeight: 1n, blockTimestamp: 1n }, storage: memoryStorage(), gasLimit: 1_000_000n });
    expect(send(0n, 4n)).toMatchObject({ status: 'trap', detail: expect.stringMatching(/transfer of 5 with 4 spendable/) });
    expect(send(1n, 4n)).toMatchObject({ status: 'ok', transfers: [{ to: new Uint8Array(33), amount: 5n }] });
  });
});
