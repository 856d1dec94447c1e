// The encrypted wallet backup file (src/wallet/backup.ts): round trip of the whole payload, a wrong password and
// any altered byte refused with -32001 and nothing returned, and hostile or foreign files refused before any scrypt.
import { describe, expect, it } from 'vitest';
import { ErrorCode, WeftError } from '../../../src/errors.ts';
import { BackupFormatError, createBackupFile, openBackupFile, parseBackupFile } from '../../../src/wallet/backup.ts';
import { WalletPassphraseError } from '../../../src/wallet/errors.ts';
import { newWalletPayload, openWallet } from '../../../src/wallet/wallet.ts';
import { regtestParams } from '../../../src/consensus/params.ts';

let counter = 0;
const randomBytes = (n: number) => Uint8Array.from({ length: n }, () => (counter = (counter * 1103515245 + 12345) >>> 0) >>> 24);
const fastScrypt = { log2n: 10, r: 8, p: 1 };
const network = { name: regtestParams.name, chainId: regtestParams.chainId, hrp: regtestParams.hrp };

function backupOf(password = 'backup password') {
  const wallet = openWallet({ name: 'savings', network, payload: newWalletPayload(randomBytes) });
  wallet.createAddress('standard');
  wallet.createAddress('standard');
  const text = createBackupFile({ name: 'savings', network: network.name, password, payload: wallet.payload(), createdMs: Date.UTC(2026, 10, 25) }, randomBytes, fastScrypt);
  return { wallet, text };
}

describe('wallet backup file', () => {
  it('is versioned JSON that opens with its password to the whole payload', () => {
    const { wallet, text } = backupOf();
    const json = JSON.parse(text);
    expect(json).toMatchObject({ format: 'weft-wallet-backup', version: 1, created: '2026-11-25T00:00:00.000Z' });
    expect(json.keystore).toMatchObject({ format: 'weft-keystore', version: 1, name: 'savings', network: 'regtest', kdf: { name: 'scrypt', log2n: 10 } });
    // Nothing readable without the password: not the phrase, not an address.
    expect(text).not.toContain(wallet.payload().mnemonic.split(' ')[0]! + ' ');
    expect(text).not.toContain(wallet.addresses()[0]!.text);
    const opened = openBackupFile(parseBackupFile(text), 'backup password');
    expect(opened.name).toBe('savings');
    expect(opened.network).toBe('regtest');
    expect(opened.payload).toEqual(wallet.payload());
    const restored = openWallet({ name: 'copy', network, payload: opened.payload });
    expect(restored.addresses().map((a) => a.text)).toEqual(wallet.addresses().map((a) => a.text));
  });

  it('refuses a wrong password with -32001 and returns nothing', () => {
    const { text } = backupOf();
    const backup = parseBackupFile(text);
    expect(() => openBackupFile(backup, 'Backup password')).toThrow(WalletPassphraseError);
    try {
      openBackupFile(backup, 'wrong');
    } catch (error) {
      expect((error as WeftError).code).toBe(ErrorCode.Unauthorized);
    }
  });

  it('refuses an altered ciphertext, name or network as a wrong password would be', () => {
    const { text } = backupOf();
    const json = JSON.parse(text);
    const flip = (hex: string) => `${hex.slice(0, 10)}${hex[10] === '0' ? '1' : '0'}${hex.slice(11)}`;
    for (const altered of [
      { ...json, keystore: { ...json.keystore, ciphertext: flip(json.keystore.ciphertext) } },
      { ...json, keystore: { ...json.keystore, name: 'other' } },
      { ...json, keystore: { ...json.keystore, network: 'mainnet' } },
    ]) {
      expect(() => openBackupFile(parseBackupFile(JSON.stringify(altered)), 'backup password')).toThrow(WalletPassphraseError);
    }
  });

  it('says what is wrong with a file that is not a backup, before spending scrypt on it', () => {
    const { text } = backupOf();
    const json = JSON.parse(text);
    const cases: [string, RegExp][] = [
      ['not json', /not JSON/],
      [JSON.stringify({ format: 'weft-keystore' }), /expected format "weft-wallet-backup"/],
      [JSON.stringify({ ...json, version: 2 }), /version: got 2, expected 1/],
      [JSON.stringify({ ...json, created: 'yesterday' }), /created/],
      [JSON.stringify({ ...json, keystore: { ...json.keystore, kdf: { ...json.keystore.kdf, log2n: 30 } } }), /kdf/],
      ['x'.repeat(4_000_001), /at most 4000000 bytes/],
    ];
    for (const [input, message] of cases) {
      expect(() => parseBackupFile(input)).toThrow(BackupFormatError);
      expect(() => parseBackupFile(input)).toThrow(message);
    }
  });
});
