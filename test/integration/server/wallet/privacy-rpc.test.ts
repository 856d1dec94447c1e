// The privacy methods on a real node with its own wallet, mempool and ledger: create_address stealth, a shield from
// a mined standard address, the node wallet's scan finding its outputs (get_balance owner and encrypted views), a
// private transfer between two wallets' stealth accounts with rings of 11, an unshield back to a transparent address,
// generate_stealth_address as Monero derives output 0, ring-signed messages, and each bad input's -40006 / -32602
// with nothing changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeAddress } from '../../../../src/crypto/address.ts';
import { keysFromSpendSecret } from '../../../../src/crypto/monero/keys.ts';
import { encodePoint } from '../../../../src/crypto/monero/point.ts';
import { decodeScalar } from '../../../../src/crypto/monero/scalar.ts';
import { signMessage } from '../../../../src/rpc/methods/sign-message.ts';
import { scanOutput } from '../../../../src/wallet/confidential.ts';
import { decodeRingMessageSignature } from '../../../../src/wallet/ring-message.ts';
import { fromHex, toHex } from '../../../../src/util/bytes.ts';
import { startRpcTestNode, type RpcTestNode } from '../../../helpers/rpc-node.ts';

const strip = (hex: string) => fromHex(hex.slice(2));

describe('privacy RPC on a node', () => {
  let t: RpcTestNode;
  let funded: string;
  let bob: string;
  let carol: string;
  let erin: string;
  const hrp = 'rweft';

  /** Mines the mempool's transactions into a block, merges it (acceptance), and one more so new outputs mature. */
  const confirmPending = async () => {
    const template = (await t.rpc('get_block_template', { miner_address: funded })).body.result;
    expect(template.transactions.length).toBeGreaterThan(0);
    await t.mine({ transactions: template.transactions.map(strip) });
    await t.mine();
    await t.mine();
  };
  const balance = async (address: string, privacy_view?: string) => (await t.rpc('get_balance', { address, ...(privacy_view ? { privacy_view } : {}) })).body;

  beforeAll(async () => {
    t = await startRpcTestNode([], false);
    funded = (await t.rpc('create_address', {})).body.result.address;
    for (let i = 0; i < 3; i++) await t.mine({ miner: decodeAddress(funded, hrp) });
    bob = (await t.rpc('create_address', { address_type: 'stealth' })).body.result.address;
    carol = (await t.rpc('create_address', { wallet_name: 'carol', address_type: 'stealth' })).body.result.address;
    erin = (await t.rpc('create_address', { wallet_name: 'erin', address_type: 'stealth' })).body.result.address;
  }, 60_000);
  afterAll(() => t?.close());

  it('a ring-signed message needs decoys from the chain: with no confidential output yet it is refused, never a ring of one', async () => {
    const refused = (await t.rpc('sign_message', { address: bob, message: 'too early', signature_type: 'ring' })).body.error;
    expect(refused).toMatchObject({ code: -40006, data: { reason: 'not_enough_decoys' } });
  });

  it('create_address stealth returns a stealth address and its public keys', async () => {
    const created = (await t.rpc('create_address', { wallet_name: 'dave', address_type: 'stealth' })).body.result;
    expect(created.address).toMatch(/^rwefts1[02-9ac-hj-np-z]+$/);
    expect(created).toMatchObject({ address_type: 'stealth', public_key: null, wallet_name: 'dave' });
    expect(created.public_spend_key).toMatch(/^0x[0-9a-f]{64}$/);
    expect(created.public_view_key).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('shields, finds the outputs by scanning, transfers privately with rings and unshields', async () => {
    const before = (await balance(funded)).result.balance_exact;
    const shield = await t.rpc('create_confidential_transaction', {
      inputs: [{ address: funded, amount: 0.0109 }],
      outputs: [
        { address: bob, amount: 0.004, stealth_payment: true },
        { address: bob, amount: 0.003 },
        { address: carol, amount: 0.002 },
        { address: carol, amount: 0.001 },
        // Outputs of a third account: the decoys that rings of 11 need on a young chain.
        ...Array.from({ length: 8 }, () => ({ address: erin, amount: 0.0001 })),
      ],
      fee: 0.0001,
    });
    expect(shield.body.error).toBeUndefined();
    expect(shield.body.result).toMatchObject({ kind: 'shield', privacy_level: 'medium', status: 'pending', ring_size: null, key_images: [] });
    expect(shield.body.result.outputs).toHaveLength(12);
    await confirmPending();
    expect(Number((await balance(funded)).result.balance_exact)).toBeCloseTo(Number(before) - 0.0109, 8);

    const bobOwner = (await balance(bob, 'owner')).result;
    expect(bobOwner).toMatchObject({ privacy_view: 'owner', confidential_balance_exact: '0.007', balance_exact: '0.007' });
    const amounts = (r: { confidential_outputs: { amount_exact?: string }[] }) => r.confidential_outputs.map((o) => o.amount_exact).sort();
    expect(amounts(bobOwner)).toEqual(['0.003', '0.004']);
    // Shield amounts are public (zeroCommit), so the encrypted view shows them too.
    expect(amounts((await balance(bob, 'encrypted')).result)).toEqual(['0.003', '0.004']);
    expect((await balance(bob, 'public')).result).toMatchObject({ privacy_view: 'public', balance_exact: '0' });

    // Bob pays Carol 0.0025 privately with rings of 11 (12 mature outputs exist); his change (0.0005) comes back hidden.
    const transfer = await t.rpc('create_confidential_transaction', { inputs: [{ address: bob, amount: 0.0035 }], outputs: [{ address: carol, amount: 0.0025 }], ring_size: 11, fee: 0.001 });
    expect(transfer.body.error).toBeUndefined();
    expect(transfer.body.result).toMatchObject({ kind: 'confidential_transfer', privacy_level: 'high', ring_size: 11 });
    expect(transfer.body.result.key_images).toHaveLength(1);
    await confirmPending();
    const view = (await t.rpc('get_transaction', { hash: transfer.body.result.hash })).body.result;
    expect(view).toMatchObject({ kind: 'confidential_transfer', privacy_level: 'high', status: 'confirmed' });
    expect(view.from).toBeUndefined();

    expect((await balance(carol, 'owner')).result.confidential_balance_exact).toBe('0.0055');
    expect((await balance(bob, 'owner')).result.confidential_balance_exact).toBe('0.0035');
    const encrypted = (await balance(carol, 'encrypted')).result;
    const hidden = encrypted.confidential_outputs.filter((o: { amount_kind: string }) => o.amount_kind === 'hidden');
    expect(hidden).toHaveLength(1);
    expect(hidden[0].encrypted_amount).toMatch(/^0x[0-9a-f]{16}$/);
    expect(hidden[0].amount_exact).toBeUndefined();

    // Carol unshields 0.003 to the transparent address, spending two outputs (0.0025 and 0.002) with 0.0005 change.
    const unshield = await t.rpc('create_confidential_transaction', { inputs: [{ address: carol, amount: 0.004 }], outputs: [{ address: funded, amount: 0.003 }], ring_size: 11, fee: 0.001 });
    expect(unshield.body.error).toBeUndefined();
    expect(unshield.body.result).toMatchObject({ kind: 'unshield', privacy_level: 'medium', ring_size: 11 });
    await confirmPending();
    expect(unshield.body.result.key_images).toHaveLength(2);
    expect((await balance(carol, 'owner')).result.confidential_balance_exact).toBe('0.0015');
    const paid = (await t.rpc('get_transaction', { hash: unshield.body.result.hash })).body.result;
    expect(paid).toMatchObject({ kind: 'unshield', to: funded, amount_exact: '0.003', status: 'confirmed' });
  }, 120_000);

  it('refuses bad requests with -40006 or -32602 and a reason, changing nothing', async () => {
    const refuse = async (params: unknown) => (await t.rpc('create_confidential_transaction', params)).body.error;
    const pendingBefore = (await t.rpc('get_info', {})).body.result.mempool_size;
    expect(await refuse({ inputs: [{ address: bob, amount: 0.001 }], outputs: [{ address: carol, amount: 0.001 }], fee: 0.01 })).toMatchObject({ code: -40006, data: { reason: 'unbalanced' } });
    expect(await refuse({ inputs: [{ address: bob, amount: 1000.01 }], outputs: [{ address: carol, amount: 1000 }], ring_size: 2 })).toMatchObject({ code: -40006, data: { reason: 'insufficient_confidential_funds' } });
    expect(await refuse({ inputs: [{ address: bob, amount: 0.0003 }], outputs: [{ address: carol, amount: 0.0002 }], ring_size: 16, fee: 0.0001 })).toMatchObject({ code: -40006, data: { reason: 'not_enough_decoys' } });
    expect(await refuse({ inputs: [{ address: bob, amount: 0.3, privacy_proof: 'zk-snark' }], outputs: [{ address: carol, amount: 0.29 }] })).toMatchObject({ code: -40006, data: { reason: 'unsupported_privacy_proof' } });
    expect(await refuse({ inputs: [{ address: funded, amount: 1.01 }], outputs: [{ address: funded, amount: 1, stealth_payment: true }] })).toMatchObject({ code: -40006, data: { reason: 'not_a_stealth_address' } });
    expect(await refuse({ inputs: [{ address: funded, amount: 1.01 }, { address: bob, amount: 1 }], outputs: [{ address: carol, amount: 2 }] })).toMatchObject({ code: -40006, data: { reason: 'mixed_inputs' } });
    const corrupt = `${carol.slice(0, -1)}${carol.endsWith('q') ? 'p' : 'q'}`;
    expect(await refuse({ inputs: [{ address: funded, amount: 1.01 }], outputs: [{ address: corrupt, amount: 1 }] })).toMatchObject({ code: -40006 });
    expect(await refuse({ inputs: [], outputs: [{ address: carol, amount: 1 }] })).toMatchObject({ code: -32602 });
    expect(await refuse({ inputs: [{ address: bob, amount: 1 }], outputs: [{ address: carol, amount: 1 }], ring_size: 17 })).toMatchObject({ code: -32602 });
    expect((await t.rpc('get_info', {})).body.result.mempool_size).toBe(pendingBefore);
    expect((await balance(funded, 'encrypted')).error).toMatchObject({ code: -40006, data: { reason: 'not_a_stealth_address' } });
  });

  it('generate_stealth_address derives output 0 as Monero does, so the view key holder finds it', async () => {
    const keys = keysFromSpendSecret(7n ** 40n);
    const params = { public_spend_key: `0x${toHex(encodePoint(keys.spendPublic))}`, public_view_key: `0x${toHex(encodePoint(keys.viewPublic))}` };
    const r = (await t.rpc('generate_stealth_address', { ...params, payment_id: '0x0102030405060708' })).body.result;
    expect(r.output_index).toBe(0);
    const found = scanOutput(keys, strip(r.tx_public_key), 0, { oneTimeKey: strip(r.one_time_key), viewTag: r.view_tag, publicAmount: 1n });
    expect(found).toBeDefined();
    expect(decodeScalar(strip(r.tx_secret_key))).toBeGreaterThan(0n);
    expect(r.integrated_address).toMatch(/^rwefts1/);
    expect(r.integrated_address.length).toBeGreaterThan(r.stealth_address.length);
    expect(r.encrypted_payment_id).toMatch(/^0x[0-9a-f]{16}$/);
    const bad = async (p: unknown) => (await t.rpc('generate_stealth_address', p)).body.error;
    expect(await bad({ ...params, payment_id: '0x0102' })).toMatchObject({ code: -40006, data: { reason: 'bad_payment_id' } });
    // A small-order point (the identity) as a key is refused.
    expect(await bad({ ...params, public_view_key: `0x01${'00'.repeat(31)}` })).toMatchObject({ code: -40006 });
  });

  it('signs messages with linkable ring signatures that verify_message checks', async () => {
    const signed = (await t.rpc('sign_message', { address: bob, message: 'hello ring', signature_type: 'ring' })).body.result;
    expect(signMessage.result.parse(signed)).toEqual(signed);
    expect(signed.signature_type).toBe('ring');
    // The ring is the signer's key among mature confidential outputs of the chain (as many as exist, up to 16), sorted:
    // the answer states its size, and the signer's position is its key's rank among decoys drawn from the chain.
    const decoded = decodeRingMessageSignature(strip(signed.signature))!;
    expect(signed.ring_size).toBeGreaterThanOrEqual(13);
    expect(signed.ring_size).toBeLessThanOrEqual(16);
    expect(decoded.ring).toHaveLength(signed.ring_size);
    const own = strip(signed.public_key);
    const decoys = decoded.ring.filter((k) => toHex(k) !== toHex(own));
    expect(decoys).toHaveLength(signed.ring_size - 1);
    for (const key of decoys) expect(t.node.ledger.getRecord('confidential_output', key), 'a decoy is an output the chain holds').toBeDefined();
    expect(decoded.ring.map(toHex)).toEqual(decoded.ring.map(toHex).sort());
    const again = (await t.rpc('sign_message', { address: bob, message: 'another', signature_type: 'ring' })).body.result;
    const keyImageOf = (hex: string) => {
      const bytes = strip(hex);
      const n = bytes[0]!;
      return toHex(bytes.subarray(1 + 32 * n, 33 + 32 * n));
    };
    expect(keyImageOf(again.signature)).toBe(keyImageOf(signed.signature));
    const verify = async (address: string, message: string, signature: string) =>
      (await t.rpc('verify_message', { address, message, signature, signature_type: 'ring' })).body.result.valid;
    expect(await verify(bob, 'hello ring', signed.signature)).toBe(true);
    expect((await t.rpc('verify_message', { address: bob, message: 'hello ring', signature: signed.signature, signature_type: 'ring' })).body.result.ring_size).toBe(signed.ring_size);
    expect(await verify(bob, 'hello ring!', signed.signature)).toBe(false);
    expect(await verify(carol, 'hello ring', signed.signature)).toBe(false);
    expect((await t.rpc('sign_message', { address: funded, message: 'x', signature_type: 'ring' })).body.error).toMatchObject({ code: -40006, data: { reason: 'ring_needs_stealth' } });
  });
});
