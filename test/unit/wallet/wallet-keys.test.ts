import { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import { fastVerifier } from '../../../server/crypto/fast-verifier.ts';
import { decodeAddress, multisigAddress } from '../../../src/crypto/address.ts';
import { publicKeyFromPrivate } from '../../../src/crypto/keys.ts';
import { nobleVerifier } from '../../../src/crypto/verifier.ts';
import { decodeTransaction, txHash, verifyTransactionSignatures } from '../../../src/kinds/transaction-codec.ts';
import { regtestParams } from '../../../src/consensus/params.ts';
import { ErrorCode, WeftError } from '../../../src/errors.ts';
import { createMempool } from '../../../src/mempool/mempool.ts';
import { derivePrivateKey, generateMnemonic, mnemonicEntropy, mnemonicSeed } from '../../../src/wallet/hd.ts';
import { createKeystoreKey, openKeystore, sealKeystore } from '../../../src/wallet/keystore.ts';
import { messageDigest, verifyMessage } from '../../../src/wallet/message.ts';
import { buildTransfer } from '../../../src/wallet/transfer.ts';
import { newWalletPayload, openWallet } from '../../../src/wallet/wallet.ts';
import { createManualClock } from '../../../src/util/clock.ts';
import { fromHex, toHex } from '../../../src/util/bytes.ts';
import { createTestAccounts } from '../../helpers/mempool-fixtures.ts';

/** Deterministic "random" bytes for reproducible wallets (a counter; keys are not the point here). */
function counterBytes(seed = 1): (n: number) => Uint8Array {
  let state = seed;
  return (n) => Uint8Array.from({ length: n }, () => (state = (state * 1103515245 + 12345) >>> 0) >>> 24);
}

const network = { name: regtestParams.name, chainId: regtestParams.chainId, hrp: regtestParams.hrp };
const trezorMnemonic = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const fastScrypt = { log2n: 10, r: 8, p: 1 };

function testWallet(seed = 1) {
  return openWallet({ name: 'test', network, payload: newWalletPayload(counterBytes(seed)) });
}

describe('mnemonics and derivation', () => {
  it('round-trips a generated 24-word mnemonic through its entropy', () => {
    const random = counterBytes(7);
    const expected = counterBytes(7)(32);
    const mnemonic = generateMnemonic(random);
    expect(mnemonic.split(' ')).toHaveLength(24);
    expect(mnemonicEntropy(mnemonic)).toEqual(expected);
    expect(mnemonicEntropy(`  ${mnemonic.toUpperCase().replaceAll(' ', '   ')} `)).toEqual(expected);
    const words = mnemonic.split(' ');
    words[3] = words[3] === 'zoo' ? 'abandon' : 'zoo';
    expect(() => mnemonicEntropy(words.join(' '))).toThrow(WeftError);
  });

  it('matches the BIP39 vector (passphrase TREZOR)', () => {
    expect(toHex(mnemonicSeed(trezorMnemonic, 'TREZOR'))).toBe(
      'c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04',
    );
  });

  it('matches BIP32 test vector 1 through @scure/bip32', () => {
    const seed = fromHex('000102030405060708090a0b0c0d0e0f');
    const root = HDKey.fromMasterSeed(seed);
    expect(root.privateExtendedKey).toBe(
      'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi',
    );
    expect(toHex(derivePrivateKey(seed, 'm'))).toBe('e8f32e723decf4051aefac8e2c93c9c5b214313817cdb01a1494b917c8436b35');
    expect(toHex(derivePrivateKey(seed, "m/0'"))).toBe('edb2e14f9ee77d26dd93b4ecede8d16ed408ce149b6cd80b0715a2d911a0afea');
    expect(root.derive("m/0'/1").privateExtendedKey).toBe(
      'xprv9wTYmMFdV23N2TdNG573QoEsfRrWKQgWeibmLntzniatZvR9BmLnvSxqu53Kw1UmYPxLgboyZQaXwTCg8MSY3H2EU4pWcQDnRnrVA1xe8fs',
    );
    expect(root.derive("m/0'/1/2'").privateExtendedKey).toBe(
      'xprv9z4pot5VBttmtdRTWfWQmoH1taj2axGVzFqSb8C9xaxKymcFzXBDptWmT7FwuEzG3ryjH4ktypQSAewRiNMjANTtpgP4mLTj34bhnZX7UiM',
    );
  });

  it("derives standard addresses on m/44'/1'/0'/0/i for test networks", () => {
    const wallet = openWallet({ name: 'w', network, payload: newWalletPayload(counterBytes(), trezorMnemonic) });
    const first = wallet.createAddress('standard');
    expect(first.path).toBe("m/44'/1'/0'/0/0");
    const key = derivePrivateKey(mnemonicSeed(trezorMnemonic), "m/44'/1'/0'/0/0");
    expect(first.address.subarray(1)).toEqual(publicKeyFromPrivate(key));
    expect(decodeAddress(first.text, 'rweft')).toEqual(first.address);
    // Reopening from the payload re-derives the same addresses.
    const again = openWallet({ name: 'w', network, payload: wallet.payload() });
    expect(again.addresses().map((a) => a.text)).toEqual([first.text]);
  });
});

describe('message signatures', () => {
  it('signs and verifies with schnorr and ecdsa, and nothing else verifies', () => {
    const wallet = testWallet();
    const { address } = wallet.createAddress('standard');
    const other = wallet.createAddress('standard').address;
    for (const type of ['schnorr', 'ecdsa'] as const) {
      const signature = wallet.signMessage(address, 'hello weft', type, new Uint8Array(32));
      expect(signature).toHaveLength(64);
      expect(verifyMessage(address, 'hello weft', signature, type)).toBe(true);
      expect(verifyMessage(address, 'hello weft!', signature, type)).toBe(false);
      expect(verifyMessage(other, 'hello weft', signature, type)).toBe(false);
      expect(verifyMessage(address, 'hello weft', signature, type === 'ecdsa' ? 'schnorr' : 'ecdsa')).toBe(false);
    }
    expect(messageDigest('a')).not.toEqual(messageDigest(new Uint8Array([0x61, 0])));
  });

  it('refuses to sign for an address the wallet does not hold', () => {
    const foreign = testWallet(2).createAddress('standard').address;
    expect(() => testWallet(1).signMessage(foreign, 'x', 'schnorr', new Uint8Array(32))).toThrow(
      expect.objectContaining({ code: ErrorCode.InvalidParams }),
    );
  });
});

describe('multisig addresses and transfers', () => {
  it('makes an m-of-n address over wallet keys and given keys, independent of key order', () => {
    const wallet = testWallet();
    const external = testWallet(9).createAddress('standard').address.subarray(1);
    const entry = wallet.createAddress('multisig', { m: 2, publicKeys: [external], walletKeys: 2 });
    expect(entry.script!.publicKeys).toHaveLength(3);
    const own = wallet.addresses().filter((a) => a.type === 'standard').map((a) => a.address.subarray(1));
    expect(entry.address).toEqual(multisigAddress(2, [external, ...own].reverse()));
    expect(wallet.addresses()).toHaveLength(3);
    expect(() => wallet.createAddress('multisig', { m: 3, walletKeys: 1 })).toThrow(WeftError);
    expect(wallet.addresses()).toHaveLength(3);
  });

  it('builds a signed transfer that decodes, verifies and enters the mempool', async () => {
    const wallet = testWallet();
    const from = wallet.createAddress('standard').address;
    const to = testWallet(3).createAddress('standard').address;
    const built = buildTransfer(wallet, { from, to, amount: 5_000n, fee: 1_000n, nonce: 0n, memo: new Uint8Array([7]) }, counterBytes(4));
    expect(decodeTransaction(built.bytes)).toEqual(built.transaction);
    expect(built.hash).toEqual(txHash(built.transaction));
    expect(verifyTransactionSignatures(built.transaction, nobleVerifier)).toBe(true);

    const accounts = createTestAccounts();
    accounts.set(from, { balance: 10_000n });
    const pool = createMempool({ params: regtestParams, accounts, verifier: fastVerifier, clock: createManualClock(0) });
    expect((await pool.add(built.bytes)).hash).toEqual(built.hash);
  });

  it('signs a multisig transfer with the m wallet keys of the script', () => {
    const wallet = testWallet();
    const from = wallet.createAddress('multisig', { m: 2, walletKeys: 3 }).address;
    const built = buildTransfer(wallet, { from, to: from, amount: 1n, fee: 1_000n, nonce: 3n }, counterBytes(5));
    const decoded = decodeTransaction(built.bytes);
    expect(decoded.kind).toBe(1);
    expect(verifyTransactionSignatures(decoded, nobleVerifier)).toBe(true);
  });
});

describe('keystore', () => {
  it('round-trips the sealed payload and refuses a wrong passphrase or an altered header', () => {
    const random = counterBytes(11);
    const payload = testWallet().payload();
    const key = createKeystoreKey('correct horse', { name: 'w', network: 'regtest' }, random, fastScrypt);
    const file = sealKeystore(key, payload, random);
    expect(JSON.stringify(file)).not.toContain(payload.mnemonic.split(' ').slice(0, 3).join(' ')); // one short word alone may sit in the format's names
    expect(openKeystore(JSON.parse(JSON.stringify(file)), 'correct horse').payload).toEqual(payload);
    expect(() => openKeystore(file, 'wrong horse')).toThrow(expect.objectContaining({ code: ErrorCode.Unauthorized }));
    expect(() => openKeystore({ ...file, network: 'mainnet' }, 'correct horse')).toThrow(expect.objectContaining({ code: ErrorCode.Unauthorized }));
    expect(() => openKeystore({ ...file, kdf: { ...file.kdf, log2n: 30 } }, 'correct horse')).toThrow(
      expect.objectContaining({ code: ErrorCode.InternalError }),
    );
    // A new save of the same payload uses a fresh nonce.
    expect(sealKeystore(key, payload, random).cipher.nonce).not.toBe(file.cipher.nonce);
  });
});
