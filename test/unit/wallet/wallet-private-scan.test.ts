// The tab's private account (web/wallet/private-*.ts) on the public JSON the node serves: its keys are the node
// wallet's stealth account 0 for the same phrase; a block's shield and ring spends, rendered by the node's own
// block view, are scanned with the view key (public and hidden amounts, key images of spends); the balance and
// history follow, and a send built from that state carries a ring of the chain's size whose proofs verify.
import { describe, expect, it } from 'vitest';
import { regtestParams } from '../../../src/consensus/params.ts';
import { txHash } from '../../../src/kinds/transaction-codec.ts';
import { encodeStealthAddress } from '../../../src/crypto/stealth-address.ts';
import type { AnyTransaction } from '../../../src/kinds/kind.ts';
import { blockTransactionJson } from '../../../src/rpc/views.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { buildRingSpend, buildShield, scanOutput } from '../../../src/wallet/confidential.ts';
import { newWalletPayload, openWallet } from '../../../src/wallet/wallet.ts';
import { openStealthAccounts } from '../../../src/wallet/stealth-accounts.ts';
import { mnemonicSeed } from '../../../src/wallet/hd.ts';
import type { PrivateState } from '../../../web/wallet/private-account.ts';
import { openPrivateOutput, scanBlockJson, type PrivateOutputRow } from '../../../web/wallet/private-scan.ts';
import { privateRingSize } from '../../../web/wallet/private-send.ts';
import { privateBalance, privateHistory, spendableOutputs } from '../../../web/wallet/private-summary.ts';
import { chainId, proofsHold, seededRandom, stealthWallet } from '../../helpers/confidential-fixtures.ts';
import { wallet } from '../../helpers/ledger-fixtures.ts';

const network = { name: regtestParams.name, chainId, hrp: regtestParams.hrp };
const payload = newWalletPayload(seededRandom(5));
const tab = openWallet({ name: 'tab', network, payload });
const account = tab.stealth.create();
const other = stealthWallet(41);
const alice = wallet(40);
const blockOf = (daaScore: number, txs: AnyTransaction[]) => ({ daa_score: daaScore, transactions: txs.map((tx) => blockTransactionJson(tx, network.hrp)) });
const rowsOf = (found: ReturnType<typeof scanBlockJson>['found']): PrivateOutputRow[] => found.map((f) => ({ ...f, wallet: 'tab' }));

describe('the tab private account', () => {
  it('is the node wallet derivation: stealth account 0 at m/44h/coin/0h/2h/0h of the same phrase', () => {
    const node = openStealthAccounts(mnemonicSeed(payload.mnemonic), network, 0, 1).list()[0]!;
    expect(account.text).toBe(node.text);
    expect(account.path).toBe(node.path);
    expect(account.path).toMatch(/^m\/44'\/\d+'\/0'\/2'\/0'$/);
    expect(account.text).toBe(encodeStealthAddress(network.hrp, { spendPublic: account.keys.spendPublic, viewPublic: account.keys.viewPublic }));
    expect(account.text.startsWith('rwefts1')).toBe(true);
  });

  it('finds shielded and hidden outputs in block JSON, marks spends by key image, and sums balance and history', () => {
    const me = { spendPublic: account.keys.spendPublic, viewPublic: account.keys.viewPublic };
    const shield = buildShield({ chainId, privateKey: alice.privateKey, fee: 1_000n, nonce: 0n, outputs: [{ to: me, amount: 700_000n }, { to: other.recipient, amount: 200_000n }], random: seededRandom(1) });
    const first = scanBlockJson(account.keys, blockOf(10, [shield]), new Set());
    expect(first.found).toHaveLength(1);
    expect(first.found[0]).toMatchObject({ txHash: toHex(txHash(shield)), outputIndex: 0, publicAmount: '700000', daaScore: 10 });
    expect(first.decoys.map((d) => d.oneTimeKey)).toEqual(shield.outputs.map((o) => toHex(o.oneTimeKey)));
    expect(first.relevant).toEqual([toHex(txHash(shield))]);

    const rows = rowsOf(first.found);
    const opened = openPrivateOutput(account.keys, rows[0]!)!;
    expect(opened.amount).toBe(700_000n);
    const decoy = scanOutput(other.keys, shield.txPublicKey, 1, { ...shield.outputs[1]!, publicAmount: 200_000n })!;
    const spend = buildRingSpend({
      chainId,
      fee: 5_000n,
      inputs: [{ owned: opened, decoys: [{ oneTimeKey: decoy.oneTimeKey, commitment: decoy.commitment }] }],
      outputs: [{ to: other.recipient, amount: 600_000n }, { to: me, amount: 95_000n }],
      random: seededRandom(2),
    });
    expect(proofsHold(spend)).toBe(true);
    const second = scanBlockJson(account.keys, blockOf(12, [spend]), new Set(rows.map((r) => r.keyImage)));
    expect(second.spends).toEqual([{ keyImage: rows[0]!.keyImage, txHash: toHex(txHash(spend)) }]);
    expect(second.found).toHaveLength(1);
    expect(second.found[0]).toMatchObject({ outputIndex: 1, daaScore: 12 });
    expect(second.found[0]!.publicAmount).toBeUndefined();
    expect(openPrivateOutput(account.keys, rowsOf(second.found)[0]!)!.amount).toBe(95_000n);

    // As private-verify.ts leaves them once proven: records present (created at the accepting block), the spend named.
    const proven = (row: PrivateOutputRow): PrivateOutputRow => ({ ...row, provenCreatedDaaScore: String(row.daaScore + 1) });
    const spentRow = { ...proven(rows[0]!), spentBy: toHex(txHash(spend)), spendProven: true };
    const held = [spentRow, ...rowsOf(second.found).map(proven)].map((row) => ({ row, owned: openPrivateOutput(account.keys, row)! }));
    const state: PrivateState = { outputs: held, decoys: [], sends: [], tipDaaScore: 13, scannedHeight: 5 };
    // Change carried at DAA 12 is accepted at 13: a ring member from 14 on, i.e. once 13 is the tip on a test chain.
    expect(privateBalance({ ...state, tipDaaScore: 12 }, chainId)).toEqual({ total: 95_000n, spendable: 0n, pendingOut: 0n, unverified: 0n });
    expect(privateBalance(state, chainId).spendable).toBe(95_000n);
    expect(privateHistory(state).map((r) => [r.type, r.amount, r.status])).toEqual([
      ['sent', 605_000n, 'confirmed'],
      ['received', 700_000n, 'confirmed'],
    ]);
    const pending = { ...state, sends: [{ wallet: 'tab', hash: 'ab'.repeat(32), keyImages: [held[1]!.row.keyImage], timeMs: 1, outflow: '50000' }] };
    expect(spendableOutputs(pending, chainId)).toEqual([]);
    expect(privateBalance(pending, chainId)).toEqual({ total: 0n, spendable: 0n, pendingOut: 50_000n, unverified: 0n });
    expect(privateHistory(pending)[0]).toMatchObject({ type: 'sent', amount: 50_000n, status: 'pending' });
  });

  it('skips what is not its own or not well formed, and other views of the same output', () => {
    const shield = buildShield({ chainId, privateKey: alice.privateKey, fee: 1_000n, nonce: 1n, outputs: [{ to: other.recipient, amount: 5n }], random: seededRandom(3) });
    const scan = scanBlockJson(account.keys, { daa_score: 1, transactions: [blockTransactionJson(shield, network.hrp), { kind: 'shield', hash: 'nope' }, { kind: 'transfer' }] }, new Set());
    expect(scan.found).toEqual([]);
    expect(scan.relevant).toEqual([]);
    expect(scan.decoys).toHaveLength(1);
  });

  it('rings are 16 on the public networks and a fixed small size on test chains', () => {
    expect(privateRingSize(1)).toBe(16);
    expect(privateRingSize(2)).toBe(16);
    expect(privateRingSize(chainId)).toBe(2);
  });
});
