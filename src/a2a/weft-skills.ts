/**
 * The chain work behind the built-in Weft agent's skills, as plain functions over small ports: account, block and
 * transaction queries, preparing (not signing) a payment, and a PoW job ("hash this job until target"). Each
 * returns the JSON the agent puts in a data part; bad input throws InvalidParams (-32602) with the reason.
 */
import type { Chain } from '../chain/chain.ts';
import { decodeTransaction, encodeTransactionBody, signingHash, txHash, type AnyTransaction, type UnsignedTransfer } from '../kinds/transaction-codec.ts';
import { transactionFields } from '../kinds/json-view.ts';
import { confirmationsOf } from '../rpc/views.ts';
import { TxKind } from '../codec/transaction-kinds.ts';
import { compactToTarget, difficultyFromTarget, powHash } from '../consensus/pow.ts';
import { decodeAddress, encodeAddress } from '../crypto/address.ts';
import { coinsToUnits, formatUnits, unitsToCoins } from '../crypto/amount.ts';
import type { PowBackend } from '../mining/job.ts';
import type { AccountReader } from '../state/account.ts';
import { equalBytes, fromHex, strip0x, toHash0x, toHex } from '../util/bytes.ts';
import { invalidParams } from './errors.ts';
import { a2aMineBatchNonces, a2aMineHashesMax, a2aTxScanBlocksMax } from './limits.ts';
import type { JsonObject } from './types.ts';

export interface FoundTransaction {
  readonly tx: AnyTransaction;
  readonly blockHash: Uint8Array;
  readonly height: number;
  /** Blue score of the chain block that accepted it: confirmations count from it (docs/design.md). */
  readonly acceptingBlueScore: number;
}

export interface WeftChainPorts {
  readonly chain: Chain;
  /** Balances and nonces at the virtual state; without it, balance queries and payments are refused. */
  readonly accounts?: AccountReader;
  /** A transaction index; without it the agent scans the last `a2aTxScanBlocksMax` selected-chain blocks. */
  readonly findTransaction?: (hash: Uint8Array) => FoundTransaction | undefined;
  readonly pow: PowBackend;
}

function address(ports: WeftChainPorts, text: unknown, field: string): Uint8Array {
  if (typeof text !== 'string') throw invalidParams(`${field}: expected an address`, field);
  try {
    return decodeAddress(text, ports.chain.params.hrp);
  } catch (error) {
    throw invalidParams(`${field}: ${(error as Error).message}`, field);
  }
}

function hash32(text: unknown, field: string): Uint8Array {
  const hex = typeof text === 'string' ? strip0x(text) : '';
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw invalidParams(`${field}: expected 0x + 64 hex digits`, field);
  return fromHex(hex);
}

function requireAccounts(ports: WeftChainPorts): AccountReader {
  if (!ports.accounts) throw invalidParams('this node serves no account state yet');
  return ports.accounts;
}

export function balanceOf(ports: WeftChainPorts, addressText: unknown): JsonObject {
  const account = requireAccounts(ports).account(address(ports, addressText, 'address'));
  return { address: addressText, balance: unitsToCoins(account.balance), balanceUnits: account.balance.toString(), nonce: Number(account.nonce), energy: unitsToCoins(account.energy) };
}

export function blockView(ports: WeftChainPorts, ref: unknown): JsonObject {
  const { chain } = ports;
  const text = ref === undefined || ref === 'tip' || ref === 'latest' ? String(chain.selectedTip().height) : String(ref);
  const block = /^[0-9]+$/.test(text) ? chain.blockAtHeight(Number(text)) : chain.get(toHex(hash32(text, 'block')));
  if (!block) throw invalidParams(`block ${text}: not found`, 'block');
  const h = block.header;
  const body = chain.getBlock(block.id);
  return {
    hash: toHash0x(block.hash),
    height: block.height,
    previous_hash: block.selectedParent ? toHash0x(block.selectedParent.hash) : null,
    parent_hashes: h.parents.map(toHash0x),
    timestamp: Math.floor(h.timestampMs / 1000),
    blue_score: h.blueScore,
    difficulty: difficultyFromTarget(compactToTarget(h.bits), chain.params.maxTarget),
    miner: encodeAddress(chain.params.hrp, h.miner),
    transaction_count: body?.transactions.length ?? 0,
  };
}

function scanForTransaction(chain: Chain, hash: Uint8Array): FoundTransaction | undefined {
  const tip = chain.selectedTip().height;
  for (let height = tip; height >= 0 && height > tip - a2aTxScanBlocksMax; height--) {
    const block = chain.blockAtHeight(height);
    const body = block && chain.getBlock(block.id);
    for (const bytes of body?.transactions ?? []) {
      const tx = decodeTransaction(bytes);
      // A selected-chain block's own transactions are accepted by it or by its chain successor: count from it.
      if (equalBytes(txHash(tx), hash)) return { tx, blockHash: block!.hash, height, acceptingBlueScore: block!.header.blueScore };
    }
  }
  return undefined;
}

export function transactionView(ports: WeftChainPorts, hashText: unknown): JsonObject {
  const hash = hash32(hashText, 'hash');
  const found = ports.findTransaction ? ports.findTransaction(hash) : scanForTransaction(ports.chain, hash);
  if (!found) throw invalidParams(`transaction ${toHash0x(hash)}: not found`, 'hash');
  return {
    ...(transactionFields(found.tx, hash, ports.chain.params.hrp) as JsonObject),
    block_hash: toHash0x(found.blockHash),
    block_height: found.height,
    confirmations: confirmationsOf(ports.chain, found.acceptingBlueScore),
  };
}

/** An unsigned transfer for the client to sign: its fields, canonical body bytes and the hash to sign (BIP340). */
export function preparePayment(ports: WeftChainPorts, args: JsonObject): JsonObject {
  const from = address(ports, args.from, 'from');
  const to = address(ports, args.to, 'to');
  if (typeof args.amount !== 'number') throw invalidParams('amount: expected a number of coins', 'amount');
  const fee = args.fee === undefined ? 1000n : coinsToUnits(Number(args.fee));
  const amount = coinsToUnits(args.amount);
  const account = requireAccounts(ports).account(from);
  if (account.balance < amount + fee) throw invalidParams(`from: balance ${formatUnits(account.balance)} is below amount + fee ${formatUnits(amount + fee)}`, 'from');
  const tx: UnsignedTransfer = { kind: TxKind.Transfer, chainId: ports.chain.params.chainId, from, to, amount, fee, nonce: account.nonce, useEnergy: false, memo: new Uint8Array(0) };
  return {
    chain_id: tx.chainId,
    from: args.from,
    to: args.to,
    amount: unitsToCoins(amount),
    fee: unitsToCoins(fee),
    nonce: Number(tx.nonce),
    unsigned_body: toHex(encodeTransactionBody(tx)),
    signing_hash: toHash0x(signingHash(tx)),
    sign_with: 'BIP340 Schnorr over signing_hash by the key of `from`; submit with send_raw_transaction',
  };
}

export interface MineJob {
  readonly prePowHash: Uint8Array;
  readonly target: bigint;
  readonly nonceStart: bigint;
  readonly maxHashes: number;
}

export function parseMineJob(args: JsonObject): MineJob {
  const prePowHash = hash32(args.prePowHash ?? args.pre_pow_hash, 'prePowHash');
  const targetText = String(args.target ?? '');
  if (!/^(0x)?[0-9a-fA-F]{1,64}$/.test(targetText)) throw invalidParams('target: expected up to 64 hex digits', 'target');
  const target = BigInt(targetText.startsWith('0x') ? targetText : `0x${targetText}`);
  const nonceStart = BigInt(String(args.nonceStart ?? args.nonce_start ?? 0));
  const maxHashes = Number(args.maxHashes ?? args.max_hashes ?? a2aMineHashesMax);
  if (!Number.isSafeInteger(maxHashes) || maxHashes < 1 || maxHashes > a2aMineHashesMax) throw invalidParams(`maxHashes: expected 1..${a2aMineHashesMax}`, 'maxHashes');
  return { prePowHash, target, nonceStart, maxHashes };
}

/** Hashes the job in batches until a nonce meets the target, the budget runs out, or `signal` aborts. */
export async function runMineJob(
  pow: PowBackend,
  job: MineJob,
  signal: AbortSignal,
  onBatch: (hashes: number) => Promise<void>,
): Promise<JsonObject> {
  let done = 0;
  let start = job.nonceStart;
  while (done < job.maxHashes && !signal.aborted) {
    const count = Math.min(a2aMineBatchNonces, job.maxHashes - done);
    const result = await pow.search({ prePowHash: job.prePowHash, target: job.target, nonceStart: start, nonceCount: count });
    done += result.hashes;
    if (result.nonce !== null) {
      return { found: true, nonce: result.nonce.toString(), hash: toHash0x(powHash(job.prePowHash, result.nonce)), hashes: done, backend: pow.name };
    }
    start = (start + BigInt(count)) & ((1n << 64n) - 1n);
    await onBatch(done);
  }
  return { found: false, hashes: done, backend: pow.name, next_nonce: start.toString() };
}
