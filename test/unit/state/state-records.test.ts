// Namespaced records through acceptance (docs/state.md "Namespaces"): a kind reads and writes records of a namespace
// beside accounts through its TxStateView; acceptance keys them by the namespace's trie key, sees its own writes
// within a mergeset, deletes with null, and a failed checkContext writes nothing. A throw-away kind (0xf1, defined
// here only) writes one record per transaction into the reserved `escrow` namespace's key space.
import { afterEach, describe, expect, it } from 'vitest';
import type { AnyTransaction, TxKindModule } from '../../../src/kinds/kind.ts';
import { registerTxKind } from '../../../src/kinds/registry.ts';
import { acceptMergeset } from '../../../src/state/acceptance.ts';
import { stateKey } from '../../../src/state/namespaces.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { wallet } from '../../helpers/ledger-fixtures.ts';

interface RecordTx extends AnyTransaction {
  readonly kind: 0xf1;
  /** 32-byte record id; `value` null deletes, and `expect` must equal the current value (undefined: absent). */
  readonly id: Uint8Array;
  readonly value: Uint8Array | null;
  readonly expect: Uint8Array | undefined;
}

const same = (a: Uint8Array | undefined, b: Uint8Array | undefined) => (a === undefined || b === undefined ? a === b : toHex(a) === toHex(b));
const nobody = wallet(77).address;

const recordKind: TxKindModule<RecordTx> = {
  tag: 0xf1,
  name: 'test_record',
  decode: () => {
    throw new Error('not on the wire');
  },
  encode: () => new Uint8Array([0xf1]),
  encodeBody: () => new Uint8Array([0xf1]),
  bodyBytes: () => 1,
  witnessChecks: () => [],
  spend: () => ({ payer: nobody, nonce: 0n, amount: 0n, fee: 0n, useEnergy: false }),
  conflictKeys: () => [],
  mass: (_tx, bytes) => ({ bytes, sigOps: 0, gas: 0 }),
  checkContext: (state, tx) => (same(state.record('escrow', tx.id), tx.expect) ? undefined : 'record_mismatch'),
  apply(state, tx) {
    state.setRecord('escrow', tx.id, tx.value);
    return { coinFee: 0n, energyFee: 0n };
  },
  parties: () => [],
  view: () => ({}),
};

const id = (n: number) => new Uint8Array(32).fill(n);
const bytes = (...values: number[]) => new Uint8Array(values);
const tx = (n: number, value: Uint8Array | null, expect?: Uint8Array): RecordTx => ({ kind: 0xf1, chainId: 0, id: id(n), value, expect });

function accept(txs: RecordTx[], stored = new Map<string, Uint8Array>()) {
  return acceptMergeset({
    read: () => undefined,
    readRecord: (key) => stored.get(toHex(key)),
    merged: [{ id: '00'.repeat(32), miner: nobody, daaScore: 1, blue: true, transactions: txs.map((t) => ({ tx: t })) }],
    mergingMiner: nobody,
    daaScore: 1,
    emittedBefore: 0n,
  });
}

let unregister: (() => void) | undefined;
afterEach(() => unregister?.());

describe('namespaced records in acceptance', () => {
  it("keys writes by the namespace's trie key and lets later transactions of the mergeset read them", () => {
    unregister = registerTxKind(recordKind);
    const result = accept([tx(1, bytes(1, 9)), tx(1, bytes(1, 10), bytes(1, 9)), tx(2, bytes(1, 5), bytes(1, 4))]);
    expect(result.blocks[0]!.accepted).toEqual([true, true, false]);
    const key = stateKey('escrow', id(1));
    expect([...result.records.keys()]).toEqual([toHex(key)]);
    expect(result.records.get(toHex(key))).toEqual({ key, value: bytes(1, 10) });
  });

  it('reads the parent state through readRecord and deletes with null', () => {
    unregister = registerTxKind(recordKind);
    const stored = new Map([[toHex(stateKey('escrow', id(3))), bytes(1, 3)]]);
    const result = accept([tx(3, null, bytes(1, 3)), tx(3, bytes(1, 4))], stored);
    expect(result.blocks[0]!.accepted).toEqual([true, true]);
    expect(result.records.get(toHex(stateKey('escrow', id(3))))?.value).toEqual(bytes(1, 4));
    const deleted = accept([tx(3, null, bytes(1, 3))], stored);
    expect(deleted.records.get(toHex(stateKey('escrow', id(3))))?.value).toBeNull();
  });

  it('refuses an id of the wrong length for the namespace as a StateError', () => {
    unregister = registerTxKind(recordKind);
    expect(() => accept([{ ...tx(1, bytes(1)), id: new Uint8Array(31) }])).toThrow(/escrow id has 31 bytes, expected 32/);
  });
});
