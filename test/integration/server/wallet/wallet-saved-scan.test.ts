// The node wallet keeps what its stealth-account scan found (docs/privacy.md "Wallets"): on a chain that prunes, an
// output shielded to a node-wallet account is found again after the wallet and its privacy port restart on the same
// datadir although the block that carried it has no body any more, and it is spent with a decoy from that pruned
// block (the saved decoy pool); a wallet without the saved scan finds nothing there. The saved file is sealed: no
// amount, key image, secret or account in the clear, and it opens under the wallet's key only. A saved output the
// state does not hold (its block left the chain) never counts, and a cursor on a branch that left the chain resumes
// the scan where that branch forked.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeTransaction, txHash } from '../../../../src/kinds/transaction-codec.ts';
import { regtestParams, type NetworkParams } from '../../../../src/consensus/params.ts';
import { decodeStealthAddress } from '../../../../src/crypto/stealth-address.ts';
import { nobleVerifier } from '../../../../src/crypto/verifier.ts';
import type { AnyTransaction } from '../../../../src/kinds/kind.ts';
import type { SignedRingSpend } from '../../../../src/kinds/confidential/ring-spend.ts';
import { createMempool } from '../../../../src/mempool/mempool.ts';
import { toHex } from '../../../../src/util/bytes.ts';
import { createManualClock } from '../../../../src/util/clock.ts';
import { buildShield } from '../../../../src/wallet/confidential.ts';
import { openAttachment, openKeystore, type SealedAttachment } from '../../../../src/wallet/keystore.ts';
import { trackConfidentialOutputs } from '../../../../server/wallet/confidential-outputs.ts';
import { scanSaveIntervalBlocks } from '../../../../src/wallet/wallet-limits.ts';
import { createPrivacyPort } from '../../../../server/wallet/privacy-port.ts';
import { parseSavedScan, savedScanPurpose, type SavedScan, type ScanStore } from '../../../../server/wallet/saved-scan.ts';
import { attachmentFilePath, loadAttachmentFile } from '../../../../server/wallet/wallet-files.ts';
import { createWalletService } from '../../../../server/wallet/wallet-service.ts';
import { seededRandom, stealthWallet } from '../../../helpers/confidential-fixtures.ts';
import { ledgerChain, wallet, type LedgerFixture } from '../../../helpers/ledger-fixtures.ts';

const params: NetworkParams = Object.freeze({ ...regtestParams, finalityDepth: 12, mergeDepth: 6, pruningDepth: 24 });
const alice = wallet(81);
const bob = wallet(82);
const stranger = stealthWallet(83);
const passphrase = 'saved scan test';
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'weft-saved-scan-'));
  dirs.push(dir);
  return dir;
}

function openWallets(datadir: string) {
  return createWalletService({ datadir, network: params, passphrase, env: {}, scrypt: { log2n: 10, r: 8, p: 1 } });
}

function openPort(f: LedgerFixture, datadir: string) {
  const wallets = openWallets(datadir);
  const pool = createMempool({ params, accounts: f.ledger, verifier: nobleVerifier, clock: createManualClock(params.genesis.timestampMs) });
  const port = createPrivacyPort({ wallets, chain: f.chain, record: (namespace, id) => f.ledger.getRecord(namespace, id), pool });
  return { wallets, port };
}

/** Carries `txs` in a block and merges it with one more chain block (acceptance); returns the carrying block. */
async function confirm(f: LedgerFixture, ...txs: AnyTransaction[]): Promise<string> {
  const carrier = await f.mine({ transactions: txs.map((tx) => encodeTransaction(tx)) });
  await f.mine();
  await f.chain.settled();
  return carrier;
}

const shieldTo = (f: LedgerFixture, text: string, amount: bigint, seed: number) => {
  const me = decodeStealthAddress(text, params.hrp);
  return buildShield({
    chainId: params.chainId,
    privateKey: alice.privateKey,
    fee: 10_000n,
    nonce: f.ledger.account(alice.address).nonce,
    outputs: [{ to: { spendPublic: me.spendPublic, viewPublic: me.viewPublic }, amount }, { to: stranger.recipient, amount: 1_000n }],
    random: seededRandom(seed),
  });
};

describe('the node wallet saves what its scan found', () => {
  it('finds a shielded output again after a restart on a pruned chain, and spends it', async () => {
    const f = await ledgerChain({ params });
    for (let i = 0; i < 3; i++) await f.mine({ miner: alice.address });
    const datadir = tempDir();
    const first = openPort(f, datadir);
    const account = first.port.createStealthAccount('default').text;
    expect(first.port.ownedOutputs(account)).toEqual([]); // the first scan: from now on blocks are scanned as they come

    // Found as its block arrives and saved at once (a kill -9 right after loses nothing).
    const shield = shieldTo(f, account, 500_000n, 1);
    const carrier = await confirm(f, shield);
    const saved = parseSavedScan(first.wallets.loadAttachment('default', savedScanPurpose));
    expect(saved.outputs.map((o) => [o.account, o.amount, toHex(o.txHash)])).toEqual([[account, 500_000n, toHex(txHash(shield))]]);
    const found = first.port.ownedOutputs(account)!;
    expect(found.map((o) => o.amount)).toEqual([500_000n]);

    // The shield's block sinks below the pruning point: its body is deleted.
    for (let i = 0; i < 40; i++) await f.mine();
    await f.chain.settled();
    await f.chain.pruningSettled();
    expect(f.chain.isPruned(carrier)).toBe(true);
    expect(f.chain.getBlock(carrier)).toBeUndefined();
    first.port.close();

    // Without the saved scan the same wallet finds nothing: the body it would scan is gone.
    const bare = tempDir();
    cpSync(datadir, bare, { recursive: true });
    unlinkSync(attachmentFilePath(bare, 'default', savedScanPurpose));
    const control = openPort(f, bare).port;
    expect(control.ownedOutputs(account)).toEqual([]);
    control.close();

    // The restarted wallet reads its saved scan and sees the output, mature and unspent in the state.
    const second = openPort(f, datadir);
    const again = second.port.ownedOutputs(account)!;
    expect(again.map((o) => [toHex(o.oneTimeKey), o.amount, o.mature])).toEqual([[toHex(found[0]!.oneTimeKey), 500_000n, true]]);

    const spend = second.port.buildConfidential({
      inputs: [{ kind: 'stealth', address: account, amount: 500_000n }],
      outputs: [{ kind: 'transparent', address: bob.address, amount: 490_000n }],
      fee: 10_000n,
      ringSize: 2,
    }) as SignedRingSpend;
    // Its decoy is the stranger's output of the pruned shield block: the saved decoy pool, not the recent bodies.
    expect(spend.inputs[0]!.ring.map((m) => toHex(m.oneTimeKey)).sort()).toEqual([toHex(shield.outputs[0]!.oneTimeKey), toHex(shield.outputs[1]!.oneTimeKey)].sort());
    const before = f.ledger.account(bob.address).balance;
    await confirm(f, spend);
    expect(f.ledger.getTransaction(txHash(spend))?.accepted).toBe(true);
    expect(f.ledger.account(bob.address).balance - before).toBe(490_000n);
    expect(second.port.ownedOutputs(account)).toEqual([]);
    second.port.close();

    // A restarted wallet catches up on its own: an output arriving while nobody asks is found although its block is
    // pruned before the first question.
    const third = openPort(f, datadir);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const late = shieldTo(f, account, 300_000n, 5);
    const lateCarrier = await confirm(f, late);
    for (let i = 0; i < 40; i++) await f.mine();
    await f.chain.settled();
    await f.chain.pruningSettled();
    expect(f.chain.getBlock(lateCarrier)).toBeUndefined();
    expect(third.port.ownedOutputs(account)!.map((o) => [o.amount, toHex(o.txHash)])).toEqual([[300_000n, toHex(txHash(late))]]);
    third.port.close();
  }, 120_000);

  it('seals the saved file: no amount, key image, secret or address in the clear; only its wallet key opens it', async () => {
    const f = await ledgerChain({ params });
    for (let i = 0; i < 3; i++) await f.mine({ miner: alice.address });
    const datadir = tempDir();
    const { wallets, port } = openPort(f, datadir);
    const account = port.createStealthAccount('default').text;
    port.ownedOutputs(account);
    await confirm(f, shieldTo(f, account, 123_457n, 2));
    port.close();

    const path = attachmentFilePath(datadir, 'default', savedScanPurpose);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const text = readFileSync(path, 'utf8');
    const saved: SavedScan = parseSavedScan(wallets.loadAttachment('default', savedScanPurpose));
    const output = saved.outputs[0]!;
    expect(output.amount).toBe(123_457n);
    // Every value as the sealed payload spells it (32-byte hex, the decimal amount, the address) is absent.
    const scalar = (n: bigint) => n.toString(16).padStart(64, '0');
    const secrets = ['123457', toHex(output.keyImage), toHex(output.oneTimeKey), toHex(output.txHash), scalar(output.secretKey), scalar(output.mask), account, ...saved.cursors.values()];
    for (const secret of secrets) expect(text.toLowerCase()).not.toContain(secret.toLowerCase());
    expect(Object.keys(JSON.parse(text)).sort()).toEqual(['cipher', 'ciphertext', 'format', 'name', 'network', 'purpose', 'version']);
    expect(JSON.parse(text)).toMatchObject({ format: 'weft-wallet-attachment', purpose: 'outputs', name: 'default', network: params.name });

    // It opens under the wallet's key only, as the outputs attachment only; the keystore's own ciphertext is no
    // attachment under the same key.
    const keystore = JSON.parse(readFileSync(join(datadir, 'wallets', 'default.json'), 'utf8'));
    const { key } = openKeystore(keystore, passphrase);
    const file = loadAttachmentFile(datadir, 'default', savedScanPurpose) as SealedAttachment;
    expect(parseSavedScan(openAttachment(key, savedScanPurpose, file)).outputs).toHaveLength(1);
    expect(() => openAttachment({ header: key.header, key: new Uint8Array(32) }, savedScanPurpose, file)).toThrow(/does not authenticate/);
    expect(() => openAttachment(key, 'keys', { ...file, purpose: 'keys' })).toThrow(/does not authenticate/);
    expect(() => openAttachment(key, savedScanPurpose, { ...file, cipher: keystore.cipher, ciphertext: keystore.ciphertext })).toThrow(/does not authenticate/);

    // A saved scan that does not open (here one flipped ciphertext byte) is set aside, not overwritten, and the
    // wallet rescans the bodies it still has.
    const flipped = file.ciphertext.slice(0, 10) + (file.ciphertext[10] === '0' ? '1' : '0') + file.ciphertext.slice(11);
    writeFileSync(path, JSON.stringify({ ...file, ciphertext: flipped }));
    const reopened = openPort(f, datadir);
    expect(reopened.port.ownedOutputs(account)!.map((o) => o.amount)).toEqual([123_457n]);
    reopened.port.close();
    const aside = readdirSync(join(datadir, 'wallets')).filter((n) => n.startsWith('default.outputs.json.unreadable-'));
    expect(aside).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(datadir, 'wallets', aside[0]!), 'utf8')).ciphertext).toBe(flipped);
    expect(parseSavedScan(reopened.wallets.loadAttachment('default', savedScanPurpose)).outputs.map((o) => o.amount)).toEqual([123_457n]);
  }, 60_000);
});

describe('a saved scan is checked against the chain', () => {
  const memoryStore = (initial: Map<string, SavedScan>): ScanStore & { saves: number } => {
    const store = {
      saves: 0,
      load: (w: string) => initial.get(w),
      save: (w: string, scan: SavedScan) => {
        store.saves++;
        initial.set(w, scan);
      },
    };
    return store;
  };

  it('never counts a saved output the state does not hold, and resumes a cursor from where its branch forked', async () => {
    const f = await ledgerChain({ params });
    for (let i = 0; i < 3; i++) await f.mine({ miner: alice.address });
    const wallets = openWallets(tempDir());
    const { account } = wallets.createStealthAccount(undefined);
    const accounts = () => [{ wallet: 'default', account }];
    const record = (namespace: Parameters<LedgerFixture['ledger']['getRecord']>[0], id: Uint8Array) => f.ledger.getRecord(namespace, id);

    // Two shields paying the account from the same nonce: a side block carries one, and the saved cursor points
    // at it; a heavier branch from the same base carries the other in its first block, at the side block's height.
    const base = f.chain.selectedTip().id;
    const losing = shieldTo(f, account.text, 300_000n, 3);
    const winning = shieldTo(f, account.text, 200_000n, 4);
    const side = await f.mine({ parents: [base], transactions: [encodeTransaction(losing)] });
    const saves = new Map<string, SavedScan>();
    const early = trackConfidentialOutputs({ chain: f.chain, record, accounts, store: memoryStore(saves), random: seededRandom(9) });
    expect(early.unspent(account).map((s) => s.output.amount)).toEqual([300_000n]);
    early.close();
    expect(saves.get('default')!.outputs.map((o) => o.amount)).toEqual([300_000n]);
    expect(saves.get('default')!.cursors.get(account.text)).toBe(side);

    let tip = await f.mine({ parents: [base], transactions: [encodeTransaction(winning)], miner: bob.address });
    for (let i = 0; i < 4; i++) tip = await f.mine({ parents: [tip] });
    await f.chain.settled();
    expect(f.chain.blockAtHeight(f.chain.get(side)!.height)?.id).not.toBe(side);
    expect(f.ledger.getTransaction(txHash(winning))?.accepted).toBe(true);
    expect(f.ledger.getTransaction(txHash(losing))?.accepted).not.toBe(true);

    // The side block's output is saved, but the state never took it: it does not count. The winner's shield,
    // above the fork and so past the resumed cursor, is found.
    const later = trackConfidentialOutputs({ chain: f.chain, record, accounts, store: memoryStore(saves), random: seededRandom(9) });
    expect(later.unspent(account).map((s) => s.output.amount)).toEqual([200_000n]);

    // Without a find or a close, the cursor is saved every scanSaveIntervalBlocks selected-chain blocks.
    for (let i = 0; i < scanSaveIntervalBlocks; i++) tip = await f.mine({ parents: [tip] });
    await f.chain.settled();
    expect(saves.get('default')!.cursors.get(account.text)).toBe(tip);
    later.close();
  }, 60_000);
});
