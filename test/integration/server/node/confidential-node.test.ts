// The confidential kinds through a real node: shield and a confidential transfer go through JSON-RPC admission,
// blocks and acceptance; get_transaction shows what the privacy level shows; get_proof proves the spent key image
// (and the absence of an unspent one) against the header's state root, and the light client decodes the record; a
// second spend of the same key image is refused by the pool (replacement underpriced) while the first is pending, refused as
// key_image_spent once the first is in the chain, and never accepted from a block; a pooled spend whose key image
// a block spends is dropped at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeTransaction, encodeTransaction, txHash } from '../../../../src/kinds/transaction-codec.ts';
import { generateKeyImage } from '../../../../src/crypto/monero/key-image.ts';
import { Point } from '../../../../src/crypto/monero/point.ts';
import { decodeConfidentialOutputRecord } from '../../../../src/kinds/confidential/records.ts';
import type { ShieldTransaction } from '../../../../src/kinds/confidential/shield.ts';
import { proofFromJson } from '../../../../src/state/proof.ts';
import { verifyStateRecord } from '../../../../src/state/proof-verify.ts';
import { fromHex, toHash0x, toHex } from '../../../../src/util/bytes.ts';
import { buildRingSpend, buildShield, scanOutput, type OwnedOutput } from '../../../../src/wallet/confidential.ts';
import type { AnyTransaction } from '../../../../src/kinds/kind.ts';
import { startRpcTestNode, type RpcTestNode } from '../../../helpers/rpc-node.ts';
import { wallet } from '../../../helpers/ledger-fixtures.ts';
import { seededRandom, stealthWallet } from '../../../helpers/confidential-fixtures.ts';

const alice = wallet(61);
const bob = stealthWallet(62);
const carol = stealthWallet(63);

/** Offset of `needle` in `haystack` (the first match), or -1. */
function findBytes(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

describe('confidential transactions on a node', () => {
  let t: RpcTestNode;
  beforeAll(async () => {
    t = await startRpcTestNode([], false);
    for (let i = 0; i < 3; i++) await t.mine({ miner: alice.address });
  });
  afterAll(() => t?.close());

  const send = async (tx: AnyTransaction) => (await t.rpc('send_raw_transaction', { transaction: `0x${toHex(encodeTransaction(tx))}` })).body;
  /** Carries `txs` in a block, then merges it with one more chain block (acceptance). */
  const confirm = async (...txs: AnyTransaction[]) => {
    await t.mine({ transactions: txs.map((tx) => encodeTransaction(tx)) });
    await t.mine();
  };

  it('shields, transfers privately and proves the key image spent', async () => {
    const chainId = t.node.chain.params.chainId;
    const shield: ShieldTransaction = buildShield({ chainId, privateKey: alice.privateKey, fee: 10_000n, nonce: t.node.ledger.account(alice.address).nonce, outputs: [{ to: bob.recipient, amount: 600_000n }, { to: bob.recipient, amount: 400_000n }], random: seededRandom(61) });
    expect((await send(shield)).result).toEqual({ hash: toHash0x(txHash(shield)), status: 'pending' });
    await confirm(shield);
    const shieldView = (await t.rpc('get_transaction', { hash: toHash0x(txHash(shield)) })).body.result;
    expect(shieldView).toMatchObject({ kind: 'shield', privacy_level: 'medium', status: 'confirmed' });

    const owned = shield.outputs.map((o, i) => scanOutput(bob.keys, shield.txPublicKey, i, { ...o, publicAmount: o.amount })!) as [OwnedOutput, OwnedOutput];
    const decoy = { oneTimeKey: owned[1].oneTimeKey, commitment: owned[1].commitment };
    const transfer = buildRingSpend({ chainId, fee: 20_000n, inputs: [{ owned: owned[0], decoys: [decoy] }], outputs: [{ to: carol.recipient, amount: 580_000n }], random: seededRandom(62) });
    // A torsioned key image (I + a point of order 8) is a privacy error (-40006), not a generic decode error.
    const bytes = encodeTransaction(transfer);
    const at = findBytes(bytes, transfer.inputs[0]!.keyImage);
    expect(at).toBeGreaterThan(0);
    const torsion = Point.fromHex('26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05');
    bytes.set(Point.fromBytes(transfer.inputs[0]!.keyImage).add(torsion).toBytes(), at);
    const torsioned = (await t.rpc('send_raw_transaction', { transaction: `0x${toHex(bytes)}` })).body;
    expect(torsioned.error).toMatchObject({ code: -40006 });
    expect(torsioned.error.message).toMatch(/torsion/);

    const sent = await send(transfer);
    expect(sent.result).toEqual({ hash: toHash0x(txHash(transfer)), status: 'pending' });

    // While it is pending, another spend of the same output is a replacement (same first key image, so the same
    // synthetic payer and nonce) and must outbid it.
    const rival = buildRingSpend({ chainId, fee: 20_000n, inputs: [{ owned: owned[0], decoys: [decoy] }], outputs: [{ to: bob.recipient, amount: 580_000n }], random: seededRandom(63) });
    expect(decodeTransaction(encodeTransaction(rival))).toEqual(rival);
    const refused = await send(rival);
    expect(refused.error).toMatchObject({ code: -40003, data: { reason: 'replacement_underpriced' } });

    await confirm(transfer);
    const view = (await t.rpc('get_transaction', { hash: sent.result.hash })).body.result;
    expect(view).toMatchObject({ kind: 'confidential_transfer', privacy_level: 'high', status: 'confirmed', ring_size: 2, fee_exact: '0.0002' });
    expect(view).not.toHaveProperty('from');
    expect(view).not.toHaveProperty('amount');

    const keyImage = transfer.inputs[0]!.keyImage;
    const answer = (await t.rpc('get_proof', { namespace: 'key_image', id: `0x${toHex(keyImage)}` })).body.result;
    expect(answer.exists).toBe(true);
    const proven = verifyStateRecord({ stateRoot: fromHex(answer.state_root.slice(2)), namespace: 'key_image', id: keyImage, proof: proofFromJson(answer.proof) });
    expect(proven.exists && proven.record.txHash).toEqual(txHash(transfer));
    // The root it was proven against is the one the block's header commits to.
    expect(toHex(t.node.chain.get(answer.block_hash.slice(2))!.header.stateRoot)).toBe(answer.state_root.slice(2));

    // The other shielded output is unspent: its would-be key image is provably absent; the new output is stored.
    const unspentImage = generateKeyImage(owned[1].oneTimeKey, owned[1].secretKey).toBytes();
    const absent = (await t.rpc('get_proof', { namespace: 'key_image', id: `0x${toHex(unspentImage)}` })).body.result;
    expect(absent.exists).toBe(false);
    const created = (await t.rpc('get_proof', { namespace: 'confidential_output', id: `0x${toHex(transfer.outputs[0]!.oneTimeKey)}` })).body.result;
    const output = verifyStateRecord({ stateRoot: fromHex(created.state_root.slice(2)), namespace: 'confidential_output', id: transfer.outputs[0]!.oneTimeKey, proof: proofFromJson(created.proof) });
    expect(output.exists && decodeConfidentialOutputRecord(output.value).amountKind).toBe('hidden');

    // Sent again now, the pool refuses the rival outright: its key image is spent in the state.
    expect((await send(rival)).error).toMatchObject({ code: -40003, data: { reason: 'key_image_spent' } });
    // Carried in a later block anyway, the rival spend is not accepted.
    await confirm(rival);
    const rivalView = (await t.rpc('get_transaction', { hash: toHash0x(txHash(rival)) })).body.result;
    expect(rivalView).toMatchObject({ status: 'dropped', accepting_block_hash: null });

    // A pending spend whose key image a block from elsewhere spends is dropped from the pool at once, not left to
    // expire: it can never be accepted.
    const decoy2 = { oneTimeKey: owned[0].oneTimeKey, commitment: owned[0].commitment };
    const pooled = buildRingSpend({ chainId, fee: 20_000n, inputs: [{ owned: owned[1], decoys: [decoy2] }], outputs: [{ to: carol.recipient, amount: 380_000n }], random: seededRandom(64) });
    const mined = buildRingSpend({ chainId, fee: 20_000n, inputs: [{ owned: owned[1], decoys: [decoy2] }], outputs: [{ to: bob.recipient, amount: 380_000n }], random: seededRandom(65) });
    expect((await send(pooled)).result.status).toBe('pending');
    await confirm(mined);
    expect((await t.rpc('get_transaction', { hash: toHash0x(txHash(mined)) })).body.result.status).toBe('confirmed');
    expect((await t.rpc('get_transaction', { hash: toHash0x(txHash(pooled)) })).body.result).toMatchObject({ status: 'dropped' });
    expect((await t.rpc('get_info', {})).body.result.mempool_size).toBe(0);
  }, 60_000);
});
