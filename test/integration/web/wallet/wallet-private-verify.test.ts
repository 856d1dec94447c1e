// Issue 34: the tab's private account against a lying node. A real regtest node carries a real shield to the tab;
// the port the tab talks to forwards everything except get_block, where it adds a fabricated 1,000,000-coin shield
// to the tab (and outputs to strangers: planted decoys), and get_transaction, where it calls that shield confirmed.
// Only what the tab proves against its own verified headers may count or join a ring.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTransaction, txHash } from '../../../../src/kinds/transaction-codec.ts';
import { coinsToUnits } from '../../../../src/crypto/amount.ts';
import { regtestParams } from '../../../../src/consensus/params.ts';
import { openLightChain, type LightChain } from '../../../../src/light/light-chain.ts';
import { createMemoryHeaderStore } from '../../../../src/light/light-store.ts';
import { blockTransactionJson } from '../../../../src/rpc/views.ts';
import { toHex } from '../../../../src/util/bytes.ts';
import { systemClock } from '../../../../src/util/clock.ts';
import { buildShield } from '../../../../src/wallet/confidential.ts';
import { newWalletPayload, openWallet } from '../../../../src/wallet/wallet.ts';
import { FieldError } from '../../../../web/wallet/form-errors.ts';
import { openPrivateAccount, type PrivateAccount } from '../../../../web/wallet/private-account.ts';
import { createMemoryPrivateDb } from '../../../../web/wallet/private-db.ts';
import type { DecoyRow } from '../../../../web/wallet/private-scan.ts';
import { checkDecoyPool, sendPrivately } from '../../../../web/wallet/private-send.ts';
import { privateBalance, privateHistory } from '../../../../web/wallet/private-summary.ts';
import { createPrivateProver } from '../../../../web/wallet/private-verify.ts';
import { seededRandom, stealthWallet } from '../../../helpers/confidential-fixtures.ts';
import { wallet } from '../../../helpers/ledger-fixtures.ts';
import { startRpcTestNode, type RpcTestNode } from '../../../helpers/rpc-node.ts';

const network = { name: regtestParams.name, chainId: regtestParams.chainId, hrp: regtestParams.hrp };
const tab = openWallet({ name: 'tab', network, payload: newWalletPayload(seededRandom(77)) });
const stealth = tab.stealth.create();
const me = { spendPublic: stealth.keys.spendPublic, viewPublic: stealth.keys.viewPublic };
const stranger = stealthWallet(61);
const planter = stealthWallet(62);
const alice = wallet(21);

let t: RpcTestNode;
let light: LightChain;
const real = buildShield({ chainId: network.chainId, privateKey: alice.privateKey, fee: 1_000n, nonce: 0n, outputs: [{ to: me, amount: 1_000_000n }, { to: stranger.recipient, amount: 2_000n }], random: seededRandom(8) });
// Never mined: a million coins to the tab, and two planted decoys.
const fabricated = buildShield({
  chainId: network.chainId, privateKey: alice.privateKey, fee: 1_000n, nonce: 7n,
  outputs: [{ to: me, amount: coinsToUnits(1_000_000) }, { to: planter.recipient, amount: 5n }, { to: planter.recipient, amount: 6n }], random: seededRandom(9),
});
const fabricatedHash = `0x${toHex(txHash(fabricated))}`;
let plantAt = 0;

const lyingNode = {
  async request(method: string, params?: Record<string, unknown>): Promise<unknown> {
    if (method === 'get_transaction' && params?.['hash'] === fabricatedHash) return { hash: fabricatedHash, status: 'confirmed' };
    const res = await t.rpc(method, params);
    if (res.body.error) throw new Error(res.body.error.message);
    const result = res.body.result;
    if (method === 'get_block' && result.height === plantAt) result.transactions = [...(result.transactions ?? []), blockTransactionJson(fabricated, network.hrp)];
    return result;
  },
};

const mine = async (count: number, transactions: Uint8Array[] = []) => {
  for (let i = 0; i < count; i++) {
    const { block } = await t.mine({ transactions: i === 0 ? transactions : [], miner: alice.address });
    light.addHeaders([block.header]);
  }
};

let account: PrivateAccount;
beforeAll(async () => {
  t = await startRpcTestNode([], false);
  light = await openLightChain({ params: regtestParams, store: createMemoryHeaderStore(), clock: systemClock });
  await mine(3);
  await mine(1, [encodeTransaction(real)]);
  plantAt = light.selectedTip().height - 1;
  await mine(6); // accepted, and past the test chains' maturity
  account = openPrivateAccount(lyingNode, createMemoryPrivateDb(), 'tab', stealth, false, createPrivateProver(light, lyingNode));
}, 60_000);
afterAll(async () => t?.close());

describe('the private account against a lying node (issue 34)', () => {
  it('counts the proven shield, labels the fabricated million "unverified" and counts none of it', async () => {
    const state = await account.refresh();
    expect(state.outputs).toHaveLength(2); // the scan found both: only proofs tell them apart
    const balance = privateBalance(state, network.chainId);
    expect(balance.total).toBe(1_000_000n);
    expect(balance.spendable).toBe(1_000_000n);
    expect(balance.unverified).toBe(coinsToUnits(1_000_000));
    const fake = state.outputs.find((o) => o.row.txHash === fabricatedHash.slice(2))!;
    expect(fake.row.unverified).toMatch(/its record is absent in the state verified at block \d+/);
    expect(privateHistory(state).map((r) => [r.hash, r.status])).toEqual(
      expect.arrayContaining([[toHex(txHash(real)), 'confirmed'], [fabricatedHash.slice(2), 'unverified']]),
    );
  }, 60_000);

  it('draws decoys only from proven outputs: planted ones never join a ring, and alone they refuse the send', async () => {
    const state = await account.refresh();
    // Every output of the real shield is proven (the tab's own among them, never its own decoy); none of the planted.
    const own = new Set(state.outputs.map((o) => o.row.oneTimeKey));
    const provenAll = state.decoys.filter((d) => d.provenCreatedDaaScore !== undefined).map((d) => d.oneTimeKey);
    expect(provenAll.sort()).toEqual(real.outputs.map((o) => toHex(o.oneTimeKey)).sort());
    const proven = provenAll.filter((k) => !own.has(k));
    expect(proven).toEqual([toHex(real.outputs[1]!.oneTimeKey)]);
    expect(state.decoys.filter((d) => d.refused).map((d) => d.oneTimeKey).sort()).toEqual(fabricated.outputs.map((o) => toHex(o.oneTimeKey)).sort());
    const request = { to: stealth.text, amount: '0.005', fee: '0.0001' };
    for (let i = 0; i < 8; i++) {
      let drawn: string[] = [];
      await expect(sendPrivately(lyingNode, createMemoryPrivateDb(), 'tab', network, account, state, request, async (_inputs, decoys) => {
        drawn = decoys.map((d) => toHex(d.oneTimeKey));
        throw new Error('stop before signing');
      })).rejects.toThrow('stop before signing');
      expect(drawn).toEqual(proven);
    }
    // Only planted (unproven) candidates: refused with a clear message, nothing signed.
    const plantedOnly = { ...state, decoys: state.decoys.map((d) => ({ ...d, provenCreatedDaaScore: undefined, refused: true })) as DecoyRow[] };
    const error = await sendPrivately(lyingNode, createMemoryPrivateDb(), 'tab', network, account, plantedOnly, request).catch((e) => e);
    expect(error).toBeInstanceOf(FieldError);
    expect((error as Error).message).toMatch(/^not_enough_decoys: a ring of 2 draws its decoys only from outputs this tab has proven; it needs 1 proven mature outputs and has 0/);
  }, 60_000);

  it('refuses a proven pool too small or too concentrated in one block for the fixed ring of 16', () => {
    const testnet = 2;
    const pool = (perBlock: number[]): DecoyRow[] =>
      perBlock.flatMap((n, block) => Array.from({ length: n }, (_, i) => ({ wallet: 'w', oneTimeKey: `${block}-${i}`, commitment: '', daaScore: 100 + block, provenCreatedDaaScore: '1' })));
    expect(checkDecoyPool(pool(Array(30).fill(2)), 16, testnet).size).toBe(30);
    expect(() => checkDecoyPool(pool(Array(30).fill(1)), 16, testnet)).toThrow(/needs 60 proven mature outputs and has 30/);
    expect(() => checkDecoyPool(pool([...Array(20).fill(2), 30]), 16, testnet)).toThrow(/from at least 30 blocks and come from 21/);
    expect(() => checkDecoyPool(pool([...Array(30).fill(1), 40]), 16, testnet)).toThrow(/one block holds 40 of the 70 \(at most 25% may come from one block\)/);
  });
});
