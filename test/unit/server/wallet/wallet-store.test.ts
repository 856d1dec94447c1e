import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveWalletPassphrase, walletFilePath } from '../../../../server/wallet/wallet-files.ts';
import { createWalletService, type WalletServiceOptions } from '../../../../server/wallet/wallet-service.ts';
import { createWalletPort } from '../../../../server/wallet/wallet-port.ts';
import { regtestParams } from '../../../../src/consensus/params.ts';
import { decodeTransaction, type Transaction } from '../../../../src/kinds/transaction-codec.ts';
import { ErrorCode } from '../../../../src/errors.ts';
import { verifyMessage } from '../../../../src/wallet/message.ts';

const network = { name: regtestParams.name, chainId: regtestParams.chainId, hrp: regtestParams.hrp };
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function datadir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'weft-wallet-'));
  dirs.push(dir);
  return dir;
}

function service(dir: string, extra: Partial<WalletServiceOptions> = {}) {
  return createWalletService({ datadir: dir, network, scrypt: { log2n: 10, r: 8, p: 1 }, env: {}, ...extra });
}

describe('node wallets on disk', () => {
  it('writes <datadir>/wallets/<name>.json with mode 0600 and reopens it with the same passphrase', () => {
    const dir = datadir();
    const first = service(dir, { passphrase: 'pass-1' });
    const address = first.createAddress(undefined, 'standard');
    const multisig = first.createAddress('default', 'multisig', { m: 1, walletKeys: 2 });
    const path = walletFilePath(dir, 'default');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'wallets')).mode & 0o777).toBe(0o700);
    // Three words in a row: one short word alone can sit inside the file's own text ("fault" in "default").
    expect(readFileSync(path, 'utf8')).not.toContain(first.exportMnemonic('default').split(' ').slice(0, 3).join(' '));

    const second = service(dir, { passphrase: 'pass-1' });
    expect(second.wallet().addresses().map((a) => a.text).sort()).toEqual(first.wallet().addresses().map((a) => a.text).sort());
    expect(second.exportMnemonic('default')).toBe(first.exportMnemonic('default'));
    expect(second.findAddress(multisig.address)?.entry.script?.m).toBe(1);
    const signature = second.signMessage(address.address, 'proof of funds', 'ecdsa');
    expect(verifyMessage(address.address, 'proof of funds', signature, 'ecdsa')).toBe(true);
  });

  it('refuses the wrong passphrase', () => {
    const dir = datadir();
    service(dir, { passphrase: 'right' }).createAddress(undefined, 'standard');
    expect(() => service(dir, { passphrase: 'wrong' }).wallet()).toThrow(expect.objectContaining({ code: ErrorCode.Unauthorized }));
  });

  it('unlocks with a generated secret file (mode 0600) when no passphrase is configured', () => {
    const dir = datadir();
    const a = service(dir);
    expect(a.passphraseSource).toBe('secret-file');
    expect(statSync(join(dir, 'wallet.secret')).mode & 0o777).toBe(0o600);
    const created = a.createAddress(undefined, 'standard');
    expect(service(dir).findAddress(created.address)).toBeDefined();
    expect(resolveWalletPassphrase(dir, undefined, { WEFT_WALLET_PASSPHRASE: 'from-env' })).toEqual({ passphrase: 'from-env', source: 'env' });
  });

  it('keeps named wallets apart, refuses unsafe names and builds transfers from the right one', () => {
    const dir = datadir();
    const wallets = service(dir, { passphrase: 'p' });
    wallets.createWallet('savings');
    const saving = wallets.createAddress('savings', 'standard');
    wallets.createAddress(undefined, 'standard');
    expect(wallets.listWallets()).toEqual(['default', 'savings']);
    expect(() => wallets.createWallet('../escape')).toThrow(expect.objectContaining({ code: ErrorCode.InvalidParams }));
    expect(() => wallets.createWallet('savings')).toThrow(expect.objectContaining({ code: ErrorCode.InvalidParams }));
    expect(() => wallets.wallet('missing')).toThrow(expect.objectContaining({ code: ErrorCode.InvalidParams }));
    wallets.createAddress('spending', 'standard');
    expect(wallets.listWallets()).toEqual(['default', 'savings', 'spending']);
    const built = wallets.buildTransfer({ from: saving.address, to: saving.address, amount: 1n, fee: 500n, nonce: 0n });
    expect((decodeTransaction(built.bytes) as Transaction).from).toEqual(saving.address);
    // A file for another network is refused, not silently used.
    const path = walletFilePath(dir, 'savings');
    writeFileSync(path, readFileSync(path, 'utf8').replace('"network": "regtest"', '"network": "devnet"'));
    expect(() => service(dir, { passphrase: 'p' }).wallet('savings')).toThrow();
  });

  it('serves the RPC wallet port: default multisig, next nonce from the pool, privacy features refused', async () => {
    const wallets = service(datadir(), { passphrase: 'p' });
    const port = createWalletPort(wallets, { nextNonce: () => 7n }, 1337);
    const request = { walletName: 'default', privacyLevel: 'medium' };
    const standard = await port.createAddress({ ...request, addressType: 'standard' });
    const multisig = await port.createAddress({ ...request, addressType: 'multisig' });
    expect(wallets.findAddress(multisig.address)?.entry.script?.publicKeys).toHaveLength(3);
    await expect(port.createAddress({ ...request, addressType: 'stealth' })).rejects.toMatchObject({ code: ErrorCode.PrivacyError });
    const signed = await port.signMessage({ address: standard.address, message: 'm', signatureType: 'schnorr' });
    expect(port.verifyMessage({ address: standard.address, message: 'm', signature: signed.signature, signatureType: 'schnorr' })).toBe(true);
    await expect(port.signMessage({ address: standard.address, message: 'm', signatureType: 'ring' })).rejects.toMatchObject({
      code: ErrorCode.PrivacyError,
    });
    const tx = await port.buildTransfer({ from: standard.address, to: multisig.address, amount: 1n, fee: 300n, useEnergy: false });
    expect(tx.nonce).toBe(7n);
  });
});
