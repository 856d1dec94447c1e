// Issue 34: wallet history rows against a lying node. A real regtest node carries the transactions; the port the
// tab talks to forwards everything to it except get_transaction, where it lies ("final"). A stranger's refused
// transaction announced as a 50,000-coin incoming payment must not become a row; one carried with a used nonce is
// bound but never confirmed; an honest payment the tab watched while pending is proven accepted; the node's
// invented pending rows do not move the nonce; a flood of junk cannot evict proven history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlockHeader } from '../../../../src/codec/header.ts';
import { encodeAddress } from '../../../../src/crypto/address.ts';
import { coinsToUnits } from '../../../../src/crypto/amount.ts';
import { blake3 } from '../../../../src/crypto/blake3.ts';
import { regtestParams } from '../../../../src/consensus/params.ts';
import { openLightChain, type LightChain } from '../../../../src/light/light-chain.ts';
import { createMemoryHeaderStore } from '../../../../src/light/light-store.ts';
import { toHash0x } from '../../../../src/util/bytes.ts';
import { systemClock } from '../../../../src/util/clock.ts';
import { createMemoryWalletDb, rowsToEvict, type HistoryRow } from '../../../../web/wallet/wallet-db.ts';
import { nextNonce, pendingSends, recordAddressEvent, refreshHistory } from '../../../../web/wallet/wallet-history.ts';
import { walletHistoryRowsMax, walletHistoryUnprovenRowsMax, walletPendingChecksMax } from '../../../../web/wallet/wallet-web-limits.ts';
import { transfer, wallet } from '../../../helpers/ledger-fixtures.ts';
import { startRpcTestNode, type RpcTestNode } from '../../../helpers/rpc-node.ts';

const hrp = regtestParams.hrp;
const alice = wallet(11);
const bob = wallet(12);
const victim = wallet(13);
const victimText = encodeAddress(hrp, victim.address);
const aliceText = encodeAddress(hrp, alice.address);
const hashOf = (bytes: Uint8Array) => toHash0x(blake3(bytes));

let t: RpcTestNode;
let light: LightChain;
const headers: BlockHeader[] = [];
/** Hashes the lying node claims are pending (with the payer and nonce it names). */
const claimedPending = new Map<string, { from: string; nonce: number }>();

const mine = async (transactions: Uint8Array[] = []) => {
  const { block } = await t.mine({ transactions, miner: alice.address });
  headers.push(block.header);
  light.addHeaders([block.header]);
};

/** Forwards to the real node, except get_transaction: "final" for anything it knows, "pending" for what it claims. */
const lyingNode = {
  async request(method: string, params?: Record<string, unknown>): Promise<unknown> {
    if (method === 'get_transaction') {
      const hash = String(params?.['hash']);
      const pending = claimedPending.get(hash);
      if (pending) return { hash, status: 'pending', from: pending.from, nonce: pending.nonce, nonce_exact: String(pending.nonce) };
      return { hash, status: 'final' };
    }
    const res = await t.rpc(method, params);
    if (res.body.error) throw Object.assign(new Error(res.body.error.message), { data: res.body.error.data });
    return res.body.result;
  },
};

beforeAll(async () => {
  t = await startRpcTestNode([], false);
  light = await openLightChain({ params: regtestParams, store: createMemoryHeaderStore(), clock: systemClock });
  for (let i = 0; i < 3; i++) await mine();
}, 60_000);
afterAll(async () => t?.close());

const stranger50k = transfer(alice, bob.address, coinsToUnits(50_000), 0n);
const paysVictim = transfer(alice, victim.address, coinsToUnits(0.01), 0n);
const usedNonce = transfer(alice, victim.address, coinsToUnits(0.02), 0n, { fee: 2_000n });

describe('wallet history against a lying node (issue 34)', () => {
  it('a stranger’s refused 50,000-coin transfer announced as incoming leaves no row', async () => {
    await mine([stranger50k]); // carried, refused: alice cannot pay 50,000
    await mine();
    const db = createMemoryWalletDb();
    await recordAddressEvent(db, 'w', { address: victimText, hash: hashOf(stranger50k), type: 'incoming', amount: 50_000, status: 'final' });
    const rows = await refreshHistory(lyingNode, light, db, 'w');
    expect(rows).toEqual([]);
  }, 60_000);

  it('a payment watched while pending is proven accepted by the payer’s nonce; amount and direction from its bytes', async () => {
    const db = createMemoryWalletDb();
    claimedPending.set(hashOf(paysVictim), { from: aliceText, nonce: 0 });
    // The node's event lies about the amount and direction: the bytes decide once proven.
    await recordAddressEvent(db, 'w', { address: victimText, hash: hashOf(paysVictim), type: 'outgoing', amount: 50_000, status: 'pending' });
    let [row] = await refreshHistory(lyingNode, light, db, 'w');
    expect(row).toMatchObject({ status: 'pending', nonceSeenBelow: true });
    expect(row!.proof).toBeUndefined();
    claimedPending.delete(hashOf(paysVictim));
    await mine([paysVictim]);
    await mine(); // the next chain block accepts it
    [row] = await refreshHistory(lyingNode, light, db, 'w');
    expect(row).toMatchObject({ status: 'confirmed', proof: 'verified', type: 'incoming', amount: '0.01', counterparty: aliceText });
    expect(row!.proofNote).toMatch(/accepted: the payer's nonce passed 0 in the state of verified block 0x[0-9a-f]{64}/);
  }, 60_000);

  it('a transfer carried with a used nonce (refused) is bound but never confirmed, whatever the node says', async () => {
    await mine([usedNonce]);
    await mine();
    const db = createMemoryWalletDb();
    await recordAddressEvent(db, 'w', { address: victimText, hash: hashOf(usedNonce), type: 'incoming', amount: 0.02, status: 'final' });
    const [row] = await refreshHistory(lyingNode, light, db, 'w');
    expect(row).toMatchObject({ status: 'unconfirmed', proof: 'included', type: 'incoming', amount: '0.02' });
    expect(row!.proofNote).toMatch(/acceptance is not proven/);
  }, 60_000);

  it('pending rows the node invents do not move the next nonce; the tab’s own sends do', async () => {
    const db = createMemoryWalletDb();
    for (let i = 0; i < 5; i++) {
      await recordAddressEvent(db, 'w', { address: aliceText, hash: toHash0x(new Uint8Array(32).fill(i + 1)), type: 'outgoing', amount: 1, status: 'pending' });
    }
    const rows = await db.history('w');
    expect(nextNonce(7n, pendingSends(rows, aliceText))).toBe(7n);
    const own: HistoryRow = { wallet: 'w', hash: toHash0x(new Uint8Array(32).fill(9)), type: 'outgoing', address: aliceText, counterparty: '', amount: '1', status: 'pending', own: true, payerNonce: '7', timeMs: 1 };
    expect(nextNonce(7n, pendingSends([...rows, own], aliceText))).toBe(8n);
    // Once the proven nonce passed it, the own send no longer holds one.
    expect(nextNonce(8n, pendingSends([...rows, own], aliceText))).toBe(8n);
  });

  it('a flood of invented pending rows cannot starve the tab’s own send of checks', async () => {
    const db = createMemoryWalletDb();
    const own = toHash0x(new Uint8Array(32).fill(0xee));
    await db.putHistory({ wallet: 'w', hash: own, type: 'outgoing', address: aliceText, counterparty: '', amount: '1', status: 'pending', own: true, payerNonce: '9', timeMs: 1 });
    for (let i = 0; i < 3 * walletPendingChecksMax; i++) {
      await recordAddressEvent(db, 'w', { address: victimText, hash: toHash0x(Uint8Array.from({ length: 32 }, (_, j) => (j === 0 ? i : 0x55))), type: 'incoming', amount: 1, status: 'pending' });
    }
    const asked: string[] = [];
    const recording = { request: async (method: string, params?: Record<string, unknown>) => (asked.push(`${method} ${String(params?.['hash'])}`), { status: 'pending' }) };
    await refreshHistory(recording, light, db, 'w');
    expect(asked[0]).toBe(`get_transaction ${own}`);
    expect(asked.filter((a) => a.startsWith('get_transaction'))).toHaveLength(walletPendingChecksMax);
  });

  it('a flood of junk past the cap cannot evict proven history', async () => {
    const db = createMemoryWalletDb();
    const hash = (i: number) => toHash0x(Uint8Array.from({ length: 32 }, (_, j) => (j < 4 ? (i >> (8 * j)) & 0xff : 7)));
    for (let i = 0; i < walletHistoryRowsMax; i++) {
      await db.putHistory({ wallet: 'w', hash: hash(i), type: 'incoming', address: victimText, counterparty: '', amount: '1', status: 'final', proof: 'verified', timeMs: i });
    }
    for (let i = 0; i < walletHistoryRowsMax + 100; i++) {
      await recordAddressEvent(db, 'w', { address: victimText, hash: hash(100_000 + i), type: 'incoming', amount: 50_000, status: 'pending' });
    }
    const rows = await db.history('w');
    expect(rows.filter((r) => r.proof === 'verified')).toHaveLength(walletHistoryRowsMax);
    expect(rows.filter((r) => r.proof === undefined)).toHaveLength(walletHistoryUnprovenRowsMax);
    expect(rowsToEvict(rows)).toEqual([]);
  });
});
