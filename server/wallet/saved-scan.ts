/**
 * What the node wallet's scan of one wallet found, as the JSON payload it seals beside the keystore
 * (docs/privacy.md "Wallets"): per stealth account the block up to which the stored chain is scanned for it (the
 * scan cursor), the owned outputs found, and a sample of the decoy pool. The payload is authenticated before it is parsed, so a bad shape is a
 * bug or another version, never an attacker: it is refused whole.
 */
import { KeystoreFormatError } from '../../src/wallet/errors.ts';
import type { RingMember } from '../../src/kinds/confidential/codec.ts';
import type { ScannedOutput } from '../../src/wallet/confidential-scan.ts';
import { fromHex, toHex } from '../../src/util/bytes.ts';
import type { WalletService } from './wallet-service.ts';

/** The attachment purpose: `<datadir>/wallets/<name>.outputs.json`. */
export const savedScanPurpose = 'outputs';
const savedScanVersion = 1;

export interface SavedScan {
  /** Stealth address text → id of the block whose past (and itself) is scanned for that account. */
  readonly cursors: ReadonlyMap<string, string>;
  readonly outputs: readonly ScannedOutput[];
  /** Outputs of the chain seen by the scan (public): decoy candidates, each checked against the state when drawn. */
  readonly decoys: readonly RingMember[];
}

interface OutputJson {
  account: string;
  txHash: string;
  outputIndex: number;
  oneTimeKey: string;
  commitment: string;
  secretKey: string;
  mask: string;
  amount: string;
  keyImage: string;
}

const scalarHex = (n: bigint) => n.toString(16).padStart(64, '0');

function savedScanPayload(scan: SavedScan): unknown {
  const outputs: OutputJson[] = scan.outputs.map((o) => ({
    account: o.account,
    txHash: toHex(o.txHash),
    outputIndex: o.outputIndex,
    oneTimeKey: toHex(o.oneTimeKey),
    commitment: toHex(o.commitment),
    secretKey: scalarHex(o.secretKey),
    mask: scalarHex(o.mask),
    amount: o.amount.toString(),
    keyImage: toHex(o.keyImage),
  }));
  const decoys = scan.decoys.map((d) => toHex(d.oneTimeKey) + toHex(d.commitment));
  return { version: savedScanVersion, cursors: Object.fromEntries(scan.cursors), outputs, decoys };
}

function bad(what: string): never {
  throw new KeystoreFormatError(`saved scan: ${what}`);
}

const hex32 = (value: unknown, field: string): Uint8Array => (typeof value === 'string' && /^[0-9a-f]{64}$/.test(value) ? fromHex(value) : bad(`${field}: expected 32 bytes of hex`));

function parseOutput(value: unknown): ScannedOutput {
  const o = value as Partial<Record<keyof OutputJson, unknown>> | null;
  if (typeof o !== 'object' || o === null) bad('output: expected an object');
  if (typeof o.account !== 'string' || o.account.length === 0) bad('output account: expected a stealth address');
  if (!Number.isInteger(o.outputIndex) || (o.outputIndex as number) < 0) bad('output index: expected an integer ≥ 0');
  if (typeof o.amount !== 'string' || !/^(0|[1-9][0-9]{0,29})$/.test(o.amount)) bad('output amount: expected a decimal integer');
  return {
    account: o.account,
    txHash: hex32(o.txHash, 'txHash'),
    outputIndex: o.outputIndex as number,
    oneTimeKey: hex32(o.oneTimeKey, 'oneTimeKey'),
    commitment: hex32(o.commitment, 'commitment'),
    secretKey: BigInt(`0x${toHex(hex32(o.secretKey, 'secretKey'))}`),
    mask: BigInt(`0x${toHex(hex32(o.mask, 'mask'))}`),
    amount: BigInt(o.amount),
    keyImage: hex32(o.keyImage, 'keyImage'),
  };
}

export function parseSavedScan(payload: unknown): SavedScan {
  const p = payload as { version?: unknown; cursors?: unknown; outputs?: unknown; decoys?: unknown } | null;
  if (typeof p !== 'object' || p === null || p.version !== savedScanVersion) bad(`expected version ${savedScanVersion}`);
  if (typeof p.cursors !== 'object' || p.cursors === null || Array.isArray(p.cursors)) bad('cursors: expected an object');
  const cursors = new Map<string, string>();
  for (const [account, id] of Object.entries(p.cursors)) {
    if (typeof id !== 'string' || !/^[0-9a-f]{64}$/.test(id)) bad(`cursor of ${account}: expected a block id`);
    cursors.set(account, id);
  }
  if (!Array.isArray(p.outputs)) bad('outputs: expected an array');
  if (!Array.isArray(p.decoys)) bad('decoys: expected an array');
  const decoys = p.decoys.map((d: unknown): RingMember => {
    if (typeof d !== 'string' || !/^[0-9a-f]{128}$/.test(d)) bad('decoy: expected 64 bytes of hex (one-time key, commitment)');
    return { oneTimeKey: fromHex(d.slice(0, 64)), commitment: fromHex(d.slice(64)) };
  });
  return { cursors, outputs: p.outputs.map(parseOutput), decoys };
}

/** Where a wallet's scan is kept between runs (the wallet file's attachment). */
export interface ScanStore {
  /** What was saved for the wallet; undefined when nothing was (or it could not be read: then it is rescanned). */
  load(wallet: string): SavedScan | undefined;
  save(wallet: string, scan: SavedScan): void;
}

/**
 * Each wallet's scan, sealed under its keystore key beside it. A saved scan that does not open (corrupt, another
 * version) is set aside, never overwritten, and counts as none: the stored chain is rescanned for that wallet.
 */
export function walletScanStore(wallets: Pick<WalletService, 'loadAttachment' | 'saveAttachment' | 'setAsideAttachment'>): ScanStore {
  return {
    load(wallet) {
      try {
        const payload = wallets.loadAttachment(wallet, savedScanPurpose);
        return payload === undefined ? undefined : parseSavedScan(payload);
      } catch (error) {
        if (!(error instanceof KeystoreFormatError)) throw error;
        wallets.setAsideAttachment(wallet, savedScanPurpose);
        return undefined;
      }
    },
    save: (wallet, scan) => wallets.saveAttachment(wallet, savedScanPurpose, savedScanPayload(scan)),
  };
}
