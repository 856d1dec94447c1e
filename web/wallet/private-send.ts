/**
 * A confidential send from the tab (docs/wallet.md "Confidential account"): a confidential_transfer built and signed here —
 * stealth outputs, Bulletproofs+ and one CLSAG per input by src/wallet/confidential.ts `buildRingSpend` — and only
 * its canonical bytes leave the tab, through the public send_raw_transaction. Outputs are chosen largest first
 * among mature unspent proven ones; change goes back, hidden, to the account. Decoys come only from outputs whose
 * records the tab has proven (private-verify.ts), mature by the proven created DAA score: one decoy per block, the
 * blocks drawn uniformly (docs/privacy.md "Decoys and bootstrap"), and a send is refused when that proven pool is
 * too small or too concentrated in a few blocks (`checkDecoyPool`), so a node cannot plant the decoys it would
 * then recognise. Ring size: the chain's fixed 16 on mainnet and testnet; on test chains, where consensus allows
 * 1–16, privateTestRingSize.
 */
import { formatUnits } from '../../src/crypto/amount.ts';
import { decodeStealthAddress } from '../../src/crypto/stealth-address.ts';
import { encodeTransaction } from '../../src/kinds/transaction-codec.ts';
import { blake3 } from '../../src/crypto/blake3.ts';
import { confidentialInputsMax, confidentialRules } from '../../src/kinds/confidential/rules.ts';
import type { RingMember } from '../../src/kinds/confidential/codec.ts';
import { buildRingSpend } from '../../src/wallet/confidential.ts';
import { fromHex, toHash0x, toHex } from '../../src/util/bytes.ts';
import { sendRawTransaction } from '../../packages/client/src/index.ts';
import type { RpcClient } from '../lib/node-client.ts';
import { FieldError } from './form-errors.ts';
import type { HeldOutput, PrivateAccount, PrivateState } from './private-account.ts';
import type { PrivateDb } from './private-db.ts';
import { privateDecoyBlockShareMax, privateDecoyBlocksPerMember, privateDecoyOutputsPerMember, privateTestRingSize } from './private-limits.ts';
import type { DecoyRow } from './private-scan.ts';
import { provenMatureForNextBlock, spendableOutputs } from './private-summary.ts';
import { parseCoinText } from './send-check.ts';
import { browserRandomBytes } from './wallet-keys.ts';

export interface PrivateSendRequest {
  readonly to: string;
  readonly amount: string;
  readonly fee: string;
}

/** The ring size this tab uses on `chainId`: one size for every send, never shrunk to fit the decoys at hand. */
export function privateRingSize(chainId: number): number {
  const rules = confidentialRules(chainId);
  return rules.ringSizeMin === rules.ringSizeMax ? rules.ringSizeMax : Math.min(Math.max(privateTestRingSize, rules.ringSizeMin), rules.ringSizeMax);
}

/** `count` distinct members drawn uniformly from `from` (a partial Fisher–Yates shuffle over the CSPRNG). */
function drawUniform<T>(from: readonly T[], count: number): T[] {
  const pool = [...from];
  for (let i = 0; i < count; i++) {
    const r = new DataView(browserRandomBytes(4).buffer).getUint32(0) % (pool.length - i);
    [pool[i], pool[i + r]] = [pool[i + r]!, pool[i]!];
  }
  return pool.slice(0, count);
}

/** What a ring of `ringSize` needs of the proven pool on `chainId`. */
function decoyPoolRule(ringSize: number, chainId: number): { outputsMin: number; blocksMin: number; blockShareMax: number } {
  const members = ringSize - 1;
  const rules = confidentialRules(chainId);
  // A test chain's ring (privateTestRingSize, consensus allows 1–16 there) exercises the plumbing, not privacy: it
  // needs one proven decoy per member, each from its own block. The fixed ring of mainnet and testnet needs a pool.
  if (rules.ringSizeMin !== rules.ringSizeMax) return { outputsMin: members, blocksMin: members, blockShareMax: 1 };
  return { outputsMin: members * privateDecoyOutputsPerMember, blocksMin: members * privateDecoyBlocksPerMember, blockShareMax: privateDecoyBlockShareMax };
}

/**
 * The proven, mature decoy candidates grouped by block (the DAA score of the chain block that carried them); a
 * FieldError about the amount when the pool is too small, spans too few blocks, or one block holds too much of it.
 */
export function checkDecoyPool(candidates: readonly DecoyRow[], ringSize: number, chainId: number): Map<number, DecoyRow[]> {
  const rule = decoyPoolRule(ringSize, chainId);
  const byBlock = new Map<number, DecoyRow[]>();
  for (const d of candidates) byBlock.set(d.daaScore, [...(byBlock.get(d.daaScore) ?? []), d]);
  const largest = Math.max(0, ...[...byBlock.values()].map((b) => b.length));
  const refuse = (why: string) => {
    throw new FieldError('amount', `not_enough_decoys: a ring of ${ringSize} draws its decoys only from outputs this tab has proven; ${why}. Wait for more blocks (the scan proves outputs as it goes)`, 'privacy_error');
  };
  if (candidates.length < rule.outputsMin) refuse(`it needs ${rule.outputsMin} proven mature outputs and has ${candidates.length}`);
  if (byBlock.size < rule.blocksMin) refuse(`they must come from at least ${rule.blocksMin} blocks and come from ${byBlock.size}`);
  if (candidates.length > 0 && largest / candidates.length > rule.blockShareMax) {
    refuse(`one block holds ${largest} of the ${candidates.length} (at most ${Math.round(rule.blockShareMax * 100)}% may come from one block)`);
  }
  return byBlock;
}

/** One ring's decoys: `count` distinct blocks drawn uniformly, then one output drawn uniformly within each. */
function drawSpread(byBlock: ReadonlyMap<number, readonly DecoyRow[]>, count: number): RingMember[] {
  return drawUniform([...byBlock.values()], count).map((block) => drawUniform(block, 1)[0]!).map((d) => ({ oneTimeKey: fromHex(d.oneTimeKey), commitment: fromHex(d.commitment) }));
}

/** Largest first until `amount` is covered; a FieldError about the amount when the mature outputs fall short. */
function chooseOutputs(spendable: readonly HeldOutput[], amount: bigint): HeldOutput[] {
  const chosen: HeldOutput[] = [];
  let total = 0n;
  for (const output of spendable) {
    if (total >= amount) break;
    chosen.push(output);
    total += output.owned.amount;
  }
  if (total < amount) throw new FieldError('amount', `insufficient confidential balance — ${formatUnits(total)} spendable in mature outputs, amount + fee is ${formatUnits(amount)}`, 'insufficient_balance');
  if (chosen.length > confidentialInputsMax) throw new FieldError('amount', `the amount needs ${chosen.length} outputs, at most ${confidentialInputsMax} fit one transaction`, 'privacy_error');
  return chosen;
}

/** Builds and signs the transfer in the tab, submits it, and records it as a pending send. */
export async function sendPrivately(
  link: RpcClient,
  store: PrivateDb,
  walletName: string,
  network: { chainId: number; hrp: string },
  account: PrivateAccount,
  state: PrivateState,
  request: PrivateSendRequest,
  /**
   * Proves the chosen inputs spendable and every drawn decoy still present, against verified headers
   * (private-proofs.ts), before anything is signed.
   */
  proveInputs?: (inputs: readonly HeldOutput[], decoys: readonly RingMember[]) => Promise<void>,
): Promise<{ hash: string; status: string; ringSize: number }> {
  let to;
  try {
    to = decodeStealthAddress(request.to.trim(), network.hrp);
  } catch (error) {
    throw new FieldError('to', `to: not a ${network.hrp}s1… stealth address (${(error as Error).message})`, 'privacy_error');
  }
  if (to.paymentId !== undefined) throw new FieldError('to', 'to: integrated addresses carry a payment id Weft transactions have no place for; use the plain stealth address', 'privacy_error');
  const amount = parseCoinText(request.amount, 'amount');
  const fee = parseCoinText(request.fee, 'fee', true);
  const chosen = chooseOutputs(spendableOutputs(state, network.chainId), amount + fee);
  const ringSize = privateRingSize(network.chainId);
  const mine = new Set(state.outputs.map((o) => o.row.oneTimeKey));
  const candidates = state.decoys.filter(
    (d) => !mine.has(d.oneTimeKey) && d.provenCreatedDaaScore !== undefined && provenMatureForNextBlock(d.provenCreatedDaaScore, state.tipDaaScore, network.chainId),
  );
  const byBlock = checkDecoyPool(candidates, ringSize, network.chainId);
  const rings = chosen.map(() => drawSpread(byBlock, ringSize - 1));
  await proveInputs?.(chosen, rings.flat());
  const change = chosen.reduce((s, o) => s + o.owned.amount, 0n) - amount - fee;
  const self = { spendPublic: account.keys.spendPublic, viewPublic: account.keys.viewPublic };
  const tx = buildRingSpend({
    chainId: network.chainId,
    fee,
    inputs: chosen.map((o, i) => ({ owned: o.owned, decoys: rings[i]! })),
    outputs: [{ to: { spendPublic: to.spendPublic, viewPublic: to.viewPublic }, amount }, ...(change > 0n ? [{ to: self, amount: change }] : [])],
    random: browserRandomBytes,
  });
  const bytes = encodeTransaction(tx);
  const hash = blake3(bytes);
  const answer = await sendRawTransaction(link, { transaction: `0x${toHex(bytes)}` });
  if (answer.hash !== toHash0x(hash)) throw new Error(`node answered hash ${answer.hash}, the tab computed ${toHash0x(hash)}`);
  await store.putSend({ wallet: walletName, hash: toHex(hash), keyImages: chosen.map((o) => o.row.keyImage), timeMs: Date.now(), outflow: (amount + fee).toString() });
  return { hash: answer.hash, status: answer.status, ringSize };
}
