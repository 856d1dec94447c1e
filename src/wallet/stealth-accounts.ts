/**
 * A wallet's stealth accounts (docs/privacy.md "Wallets"): Monero-style spend and view key pairs derived from the
 * same mnemonic as its standard addresses, so one backup restores both.
 *
 * Account i: b = sc_reduce32(BIP32 key at `m/44'/coin'/account'/2'/i'`), a = Hs(b) as Monero derives the view key,
 * B = b·G, A = a·G. The `2'` branch is hardened and apart from BIP44's external (0) and change (1) chains, so no
 * standard address key ever doubles as a stealth spend key.
 */
import { HDKey } from '@scure/bip32';
import { keysFromSpendSecret, type MoneroKeys } from '../crypto/monero/keys.ts';
import { encodePoint } from '../crypto/monero/point.ts';
import { reduceScalar32 } from '../crypto/monero/scalar.ts';
import { encodeStealthAddress } from '../crypto/stealth-address.ts';
import { toHex } from '../util/bytes.ts';
import { WalletParamError } from './errors.ts';
import { coinTypeFor } from './hd.ts';
import { walletStealthAccountsMax } from './wallet-limits.ts';

export interface StealthAccount {
  readonly index: number;
  readonly path: string;
  readonly keys: MoneroKeys;
  /** The bech32m stealth address (src/crypto/stealth-address.ts). */
  readonly text: string;
}

export interface StealthAccounts {
  list(): StealthAccount[];
  /** The account whose public spend key is `spendPublic` (32 bytes). */
  bySpendKey(spendPublic: Uint8Array): StealthAccount | undefined;
  byText(text: string): StealthAccount | undefined;
  create(): StealthAccount;
  count(): number;
}

function stealthAccountPath(networkName: string, account: number, index: number): string {
  return `m/44'/${coinTypeFor(networkName)}'/${account}'/2'/${index}'`;
}

export function openStealthAccounts(seed: Uint8Array, network: { name: string; hrp: string }, account: number, derived: number): StealthAccounts {
  const master = HDKey.fromMasterSeed(seed);
  const accounts: StealthAccount[] = [];
  const bySpend = new Map<string, StealthAccount>();
  const byText = new Map<string, StealthAccount>();

  const create = (): StealthAccount => {
    if (accounts.length >= walletStealthAccountsMax) throw new WalletParamError('too_many', `at most ${walletStealthAccountsMax} stealth accounts per wallet`);
    const index = accounts.length;
    const path = stealthAccountPath(network.name, account, index);
    const keys = keysFromSpendSecret(reduceScalar32(master.derive(path).privateKey!));
    const entry = { index, path, keys, text: encodeStealthAddress(network.hrp, { spendPublic: keys.spendPublic, viewPublic: keys.viewPublic }) };
    accounts.push(entry);
    bySpend.set(toHex(encodePoint(keys.spendPublic)), entry);
    byText.set(entry.text, entry);
    return entry;
  };

  while (accounts.length < derived) create();
  return {
    list: () => [...accounts],
    bySpendKey: (spendPublic) => bySpend.get(toHex(spendPublic)),
    byText: (text) => byText.get(text.toLowerCase()),
    create,
    count: () => accounts.length,
  };
}
