// The extension point, proven from outside src/: a throw-away transaction kind defined in this test file only is
// registered and pushed through a real node — JSON-RPC admission into the mempool, a block template built from the
// pool, submit_block, acceptance through the body-in-context stage, and get_transaction's view — with no file under
// src/ knowing it exists. A second flavour of it weighs more than a block's mass budget and is refused by its own rule.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { encodeBlock, transactionsRoot } from '../../../src/codec/block.ts';
import { decodeHeader } from '../../../src/codec/header.ts';
import { decodeTransaction, encodeTransaction, txHash } from '../../../src/kinds/transaction-codec.ts';
import { createTxReader, failDecode, failEncode } from '../../../src/kinds/value-transfer.ts';
import type { Paid, TxKindModule, TxStateView } from '../../../src/kinds/kind.ts';
import { gasPerMass } from '../../../src/kinds/mass.ts';
import { registerTxKind } from '../../../src/kinds/registry.ts';
import { signingHashOfBody } from '../../../src/kinds/signing.ts';
import { searchNonce } from '../../../src/consensus/pow.ts';
import { encodeAddress } from '../../../src/crypto/address.ts';
import { unitsToCoins } from '../../../src/crypto/amount.ts';
import { schnorrSign } from '../../../src/crypto/keys.ts';
import { blockMassMax } from '../../../src/limits.ts';
import { fromHex, toHash0x, toHex } from '../../../src/util/bytes.ts';
import { makeBlock } from '../../helpers/chain-fixtures.ts';
import { startRpcTestNode, type RpcTestNode } from '../../helpers/rpc-node.ts';
import { wallet } from '../../helpers/ledger-fixtures.ts';

/** Kind 0xf0 (unassigned, outside every reserved family): a paid note. Body: tag | chain_id u32 | from [33] | nonce u64 | fee u64 | heavy u8 | len u8 | text. */
interface NoteTx {
  readonly kind: 0xf0;
  readonly chainId: number;
  readonly from: Uint8Array;
  readonly nonce: bigint;
  readonly fee: bigint;
  readonly heavy: boolean;
  readonly text: string;
  readonly signature: Uint8Array;
}

const encoder = new TextEncoder();
const bodyOf = (tx: Omit<NoteTx, 'signature'>): Uint8Array => {
  const text = encoder.encode(tx.text);
  if (text.length > 64) failEncode('note: at most 64 bytes');
  const out = new Uint8Array(1 + 4 + 33 + 8 + 8 + 1 + 1 + text.length);
  const view = new DataView(out.buffer);
  view.setUint8(0, 0xf0);
  view.setUint32(1, tx.chainId, true);
  out.set(tx.from, 5);
  view.setBigUint64(38, tx.nonce, true);
  view.setBigUint64(46, tx.fee, true);
  view.setUint8(54, tx.heavy ? 1 : 0);
  view.setUint8(55, text.length);
  out.set(text, 56);
  return out;
};

const noteKind: TxKindModule<NoteTx> = {
  tag: 0xf0,
  name: 'test_note',
  decode(bytes) {
    const read = createTxReader(bytes);
    read.u8('kind');
    const chainId = read.u32('chain_id');
    const from = read.bytes('from', 33);
    const nonce = read.u64('nonce');
    const fee = read.u64('fee');
    const heavy = read.u8('heavy');
    if (heavy > 1) failDecode('note heavy: expected 0 or 1');
    const text = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes('text', read.u8('text length')));
    const signature = read.bytes('signature', 64);
    if (read.remaining() !== 0) failDecode('note: trailing bytes');
    return { kind: 0xf0, chainId, from, nonce, fee, heavy: heavy === 1, text, signature };
  },
  encode: (tx) => {
    const body = bodyOf(tx);
    const out = new Uint8Array(body.length + 64);
    out.set(body);
    out.set(tx.signature, body.length);
    return out;
  },
  encodeBody: bodyOf,
  bodyBytes: (tx) => 56 + encoder.encode(tx.text).length,
  witnessChecks: (tx, message) => [{ scheme: 'bip340', signature: tx.signature, message, publicKey: tx.from.subarray(1) }],
  spend: (tx) => ({ payer: tx.from, nonce: tx.nonce, amount: 0n, fee: tx.fee, useEnergy: false }),
  conflictKeys: (tx) => [`nonce:${toHex(tx.from)}:${tx.nonce}`],
  mass: (tx, bytes) => ({ bytes, sigOps: 1, gas: tx.heavy ? blockMassMax * gasPerMass : 0 }),
  checkContext(state: TxStateView, tx) {
    const account = state.account(tx.from);
    if (tx.nonce !== account.nonce) return 'nonce';
    return account.balance < tx.fee ? 'balance' : undefined;
  },
  apply(state: TxStateView, tx): Paid {
    const account = state.account(tx.from);
    state.setAccount(tx.from, { ...account, balance: account.balance - tx.fee, nonce: account.nonce + 1n });
    return { coinFee: tx.fee, energyFee: 0n };
  },
  parties: (tx) => [{ address: tx.from, role: 'sender', amount: 0n }],
  view: (tx, hrp) => ({ from: encodeAddress(hrp, tx.from), fee: unitsToCoins(tx.fee), nonce: Number(tx.nonce), note: tx.text }),
};

const alice = wallet(41);

function note(chainId: number, nonce: bigint, text: string, heavy = false): Uint8Array {
  const unsigned = { kind: 0xf0, chainId, from: alice.address, nonce, fee: 50_000n, heavy, text } as const;
  const signature = schnorrSign(signingHashOfBody(bodyOf(unsigned)), alice.privateKey, new Uint8Array(32));
  return encodeTransaction({ ...unsigned, signature } as NoteTx);
}

describe('a transaction kind defined outside src/', () => {
  let t: RpcTestNode;
  let unregister: (() => void) | undefined;
  beforeAll(async () => {
    t = await startRpcTestNode([], false);
    for (let i = 0; i < 3; i++) await t.mine({ miner: alice.address });
  });
  afterAll(() => t?.close());
  afterEach(() => unregister?.());

  it('is refused with a coded decode error while unregistered', async () => {
    const answer = await t.rpc('send_raw_transaction', { transaction: `0x${toHex(new Uint8Array([0xf0, 1, 2, 3]))}` });
    expect(answer.body.error.code).toBe(-32602);
    expect(JSON.stringify(answer.body.error)).toMatch(/unknown tag 240/);
  });

  it('goes mempool → template → block → acceptance → RPC view once registered', async () => {
    unregister = registerTxKind(noteKind);
    const chainId = t.node.chain.params.chainId;
    const bytes = note(chainId, t.node.ledger.account(alice.address).nonce, 'hello, extension point');
    const before = t.node.ledger.account(alice.address);
    const sent = await t.rpc('send_raw_transaction', { transaction: `0x${toHex(bytes)}` });
    expect(sent.body.result).toEqual({ hash: toHash0x(txHash(decodeTransaction(bytes))), status: 'pending' });
    const pending = await t.rpc('get_transaction', { hash: sent.body.result.hash });
    expect(pending.body.result).toMatchObject({ kind: 'test_note', note: 'hello, extension point', status: 'pending' });

    // A template from the pool carries it; grind it and submit the block.
    const template = (await t.rpc('get_block_template', { miner_address: encodeAddress(t.node.chain.params.hrp, alice.address) })).body.result;
    expect(template.transactions).toEqual([`0x${toHex(bytes)}`]);
    const header = decodeHeader(fromHex(template.header.slice(2)));
    const found = searchNonce(fromHex(template.pre_pow_hash.slice(2)), BigInt(template.target), 0n, 5_000_000);
    const transactions = template.transactions.map((hex: string) => fromHex(hex.slice(2)));
    expect(toHex(transactionsRoot({ transactions }))).toBe(toHex(header.txRoot));
    const block = encodeBlock({ header: { ...header, nonce: found.nonce! }, transactions });
    const submitted = await t.rpc('submit_block', { block: `0x${toHex(block)}` });
    expect(submitted.body.result.status).toBe('accepted');

    // The next chain block accepts it through the body-in-context stage: the fee left alice, her nonce moved.
    await t.mine();
    const after = t.node.ledger.account(alice.address);
    expect(after.nonce).toBe(before.nonce + 1n);
    const confirmed = await t.rpc('get_transaction', { hash: sent.body.result.hash });
    expect(confirmed.body.result).toMatchObject({
      hash: sent.body.result.hash,
      kind: 'test_note',
      from: encodeAddress(t.node.chain.params.hrp, alice.address),
      note: 'hello, extension point',
      fee: 0.0005,
      status: 'confirmed',
    });
    expect(confirmed.body.result.confirmations).toBeGreaterThan(0);
    const history = await t.rpc('get_transaction_history', { address: encodeAddress(t.node.chain.params.hrp, alice.address), limit: 5 });
    expect(history.body.result.transactions[0]).toMatchObject({ hash: sent.body.result.hash, type: 'outgoing' });
  });

  it('refuses a block whose mass is over the budget with its own rule', async () => {
    unregister = registerTxKind(noteKind);
    const heavy = note(t.node.chain.params.chainId, t.node.ledger.account(alice.address).nonce, 'heavy', true);
    const refused = await t.rpc('submit_block', { block: `0x${toHex(encodeBlock(makeBlock(t.node.chain, { transactions: [heavy] })))}` });
    expect(JSON.stringify(refused.body)).toMatch(/body\.mass\.too-large/);
  });
});
