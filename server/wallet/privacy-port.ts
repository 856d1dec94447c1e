/**
 * The RPC's PrivacyPort (src/rpc/ports.ts) over the node's wallets: stealth accounts, their confidential balances,
 * building shields, confidential transfers and unshields with rings drawn from the chain's mature outputs, and
 * ring-signed messages. The rules callers see are in docs/api.md "Privacy"; consensus is src/kinds/confidential/.
 */
import { randomBytes as nodeRandomBytes } from 'node:crypto';
import type { Chain } from '../../src/chain/chain.ts';
import { TxKind } from '../../src/codec/transaction-kinds.ts';
import type { AnyTransaction } from '../../src/kinds/transaction-codec.ts';
import { AddressType } from '../../src/crypto/address.ts';
import { PrivacyEncodingError } from '../../src/crypto/monero/errors.ts';
import { encodePoint } from '../../src/crypto/monero/point.ts';
import type { RandomBytes } from '../../src/crypto/monero/scalar.ts';
import { decodeStealthAddress } from '../../src/crypto/stealth-address.ts';
import type { RingMember } from '../../src/kinds/confidential/codec.ts';
import { confidentialInputsMax, confidentialOutputsMax, confidentialRules } from '../../src/kinds/confidential/rules.ts';
import type { SignedRingSpend } from '../../src/kinds/confidential/ring-spend.ts';
import type { RecordNamespace } from '../../src/kinds/kind.ts';
import type { Mempool } from '../../src/mempool/mempool.ts';
import type { ConfidentialEndpoint, ConfidentialRequest, PrivacyPort } from '../../src/rpc/ports.ts';
import { toHex } from '../../src/util/bytes.ts';
import { buildRingSpend, buildShield, type StealthRecipient } from '../../src/wallet/confidential.ts';
import { isConfidentialTransaction } from '../../src/wallet/confidential-scan.ts';
import { messageRingSizeMin, signRingMessage } from '../../src/wallet/ring-message.ts';
import type { StealthAccount } from '../../src/wallet/stealth-accounts.ts';
import { trackConfidentialOutputs, type OutputStatus } from './confidential-outputs.ts';
import { walletScanStore } from './saved-scan.ts';
import type { WalletService } from './wallet-service.ts';

export interface PrivacyPortOptions {
  readonly wallets: WalletService;
  readonly chain: Chain;
  readonly record: (namespace: RecordNamespace, id: Uint8Array) => Uint8Array | undefined;
  readonly pool: Pick<Mempool, 'nextNonce' | 'pending'>;
  readonly random?: RandomBytes;
}

function refuse(reason: string, message: string): never {
  throw new PrivacyEncodingError(message, { reason });
}

/** `count` distinct members drawn uniformly from `from` (a partial Fisher–Yates shuffle). */
function drawUniform<T>(from: readonly T[], count: number, random: RandomBytes): T[] {
  const pool = [...from];
  const out: T[] = [];
  for (let i = 0; i < count; i++) {
    const draw = random(4);
    const r = new DataView(draw.buffer, draw.byteOffset, 4).getUint32(0) % (pool.length - i);
    [pool[i], pool[i + r]] = [pool[i + r]!, pool[i]!];
    out.push(pool[i]!);
  }
  return out;
}

export function createPrivacyPort(options: PrivacyPortOptions): PrivacyPort & { close(): void } {
  const { wallets, chain, pool } = options;
  const random: RandomBytes = options.random ?? ((n) => new Uint8Array(nodeRandomBytes(n)));
  const { chainId, hrp } = chain.params;
  const rules = confidentialRules(chainId);
  const outputs = trackConfidentialOutputs({
    chain,
    record: options.record,
    accounts: () => wallets.stealthAccounts().map((s) => ({ wallet: s.wallet.name, account: s.account })),
    store: walletScanStore(wallets),
    random,
  });
  // Catch up soon after start rather than on first use: on a pruned node, blocks that arrive while nobody asks would
  // lose their bodies before the scan reached them. A failure here (a wallet that does not unlock) is left for the
  // first call to report.
  const catchUp = () => {
    try {
      outputs.catchUp();
    } catch {
      // reported by the first call that needs the wallets
    }
  };
  let pending: ReturnType<typeof setTimeout> | undefined;
  const scheduleCatchUp = () => {
    pending ??= setTimeout(() => {
      pending = undefined;
      catchUp();
    }, 0);
    pending.unref();
  };
  scheduleCatchUp();

  const accountOf = (text: string): StealthAccount | undefined => wallets.stealthAccounts().find((s) => s.account.text === text.toLowerCase())?.account;
  const ownAccount = (text: string): StealthAccount => accountOf(text) ?? refuse('not_in_wallet', `stealth address ${text} is in none of this node's wallets`);

  const recipient = (endpoint: ConfidentialEndpoint & { kind: 'stealth' }): StealthRecipient => {
    const decoded = decodeStealthAddress(endpoint.address, hrp);
    if (decoded.paymentId !== undefined) refuse('payment_id_not_carried', 'integrated addresses: Weft transactions carry no payment id; pay the plain stealth address');
    return { spendPublic: decoded.spendPublic, viewPublic: decoded.viewPublic };
  };

  // Key images of pending ring spends: their outputs are taken until the pool drops or a block accepts them.
  const pendingKeyImages = (): Set<string> => {
    const taken = new Set<string>();
    for (const entry of pool.pending()) {
      if (!isConfidentialTransaction(entry.tx) || entry.tx.kind === TxKind.Shield) continue;
      for (const input of (entry.tx as SignedRingSpend).inputs) taken.add(toHex(input.keyImage));
    }
    return taken;
  };

  /** Owned, mature, unpending outputs of `account` covering `amount`, largest first; their sum ≥ amount. */
  const selectOutputs = (account: StealthAccount, amount: bigint, taken: Set<string>): OutputStatus[] => {
    const spendable = outputs
      .unspent(account)
      .filter((s) => s.mature && !taken.has(toHex(s.output.keyImage)))
      .sort((a, b) => (a.output.amount < b.output.amount ? 1 : a.output.amount > b.output.amount ? -1 : 0));
    const chosen: OutputStatus[] = [];
    let sum = 0n;
    for (const s of spendable) {
      if (sum >= amount) break;
      chosen.push(s);
      sum += s.output.amount;
    }
    if (sum < amount) refuse('insufficient_confidential_funds', `${account.text} holds ${sum} spendable units in mature confidential outputs, ${amount} asked`);
    return chosen;
  };

  const buildShieldFrom = (input: ConfidentialEndpoint & { kind: 'transparent' }, request: ConfidentialRequest): AnyTransaction => {
    if (input.address[0] !== AddressType.Standard) refuse('not_standard', 'a shield is paid from a standard address');
    const key = wallets.findAddress(input.address)?.wallet.privateKeyOf(input.address.subarray(1));
    if (key === undefined) refuse('not_in_wallet', 'the node wallet holds no key for the input address');
    const to = request.outputs.map((o) => (o.kind === 'stealth' ? { to: recipient(o), amount: o.amount } : refuse('shield_to_transparent', 'a shield pays stealth addresses only')));
    return buildShield({ chainId, privateKey: key, fee: request.fee, nonce: pool.nextNonce(input.address), outputs: to, random });
  };

  const buildRingSpendFrom = (request: ConfidentialRequest): AnyTransaction => {
    const ringSize = request.ringSize ?? rules.ringSizeMax;
    if (!Number.isInteger(ringSize) || ringSize < rules.ringSizeMin || ringSize > rules.ringSizeMax) {
      refuse('ring_size', `ring_size: got ${ringSize}, this chain allows ${rules.ringSizeMin}–${rules.ringSizeMax}`);
    }
    const taken = pendingKeyImages();
    const spent: { account: StealthAccount; chosen: OutputStatus[]; amount: bigint }[] = request.inputs.map((input) => {
      const account = ownAccount(input.address as string);
      const chosen = selectOutputs(account, input.amount, taken);
      for (const c of chosen) taken.add(toHex(c.output.keyImage));
      return { account, chosen, amount: input.amount };
    });
    const owned = spent.flatMap((s) => s.chosen);
    if (owned.length > confidentialInputsMax) refuse('too_many_inputs', `the amount needs ${owned.length} outputs, at most ${confidentialInputsMax} fit one transaction`);
    const transparent = request.outputs.filter((o) => o.kind === 'transparent');
    if (transparent.length > 1) refuse('too_many_transparent_outputs', 'an unshield pays one transparent address');
    const hidden = request.outputs.flatMap((o) => (o.kind === 'stealth' ? [{ to: recipient(o), amount: o.amount }] : []));
    // Change goes back, hidden, to the account it came from.
    for (const s of spent) {
      const change = s.chosen.reduce((sum, c) => sum + c.output.amount, 0n) - s.amount;
      if (change > 0n) hidden.push({ to: { spendPublic: s.account.keys.spendPublic, viewPublic: s.account.keys.viewPublic }, amount: change });
    }
    if (hidden.length > confidentialOutputsMax) refuse('too_many_outputs', `at most ${confidentialOutputsMax} hidden outputs (change included)`);
    if (transparent.length === 0 && hidden.length === 0) refuse('no_outputs', 'a confidential transfer needs at least one output');
    const exclude = new Set(owned.map((o) => toHex(o.output.oneTimeKey)));
    const candidates = outputs.decoyCandidates(exclude);
    if (candidates.length < ringSize - 1) {
      refuse('not_enough_decoys', `ring_size ${ringSize} needs ${ringSize - 1} other mature outputs; the chain has ${candidates.length}`);
    }
    const inputs = owned.map((o) => ({ owned: o.output, decoys: drawUniform<RingMember>(candidates, ringSize - 1, random) }));
    const unshield = transparent[0];
    return buildRingSpend({
      chainId,
      fee: request.fee,
      inputs,
      outputs: hidden,
      ...(unshield ? { unshield: { to: unshield.address as Uint8Array, amount: unshield.amount } } : {}),
      random,
    });
  };

  return {
    createStealthAccount(walletName) {
      const { account } = wallets.createStealthAccount(walletName);
      scheduleCatchUp();
      return { text: account.text, spendPublic: encodePoint(account.keys.spendPublic), viewPublic: encodePoint(account.keys.viewPublic), path: account.path };
    },
    ownedOutputs(text) {
      const account = accountOf(text);
      if (account === undefined) return undefined;
      return outputs.unspent(account).map(({ output, record, mature }) => ({
        oneTimeKey: output.oneTimeKey,
        commitment: record.commitment,
        amountKind: record.amountKind,
        storedAmount: record.amount,
        amount: output.amount,
        mature,
        txHash: output.txHash,
      }));
    },
    buildConfidential(request) {
      const sum = (list: readonly ConfidentialEndpoint[]) => list.reduce((s, e) => s + e.amount, 0n);
      if (sum(request.inputs) !== sum(request.outputs) + request.fee) {
        refuse('unbalanced', `inputs total ${sum(request.inputs)} units, outputs ${sum(request.outputs)} + fee ${request.fee}: they must be equal`);
      }
      const kinds = new Set(request.inputs.map((i) => i.kind));
      if (kinds.size !== 1) refuse('mixed_inputs', 'inputs are either one transparent address (a shield) or stealth addresses (a ring spend)');
      const first = request.inputs[0]!;
      if (first.kind === 'transparent') {
        if (request.inputs.length !== 1) refuse('mixed_inputs', 'a shield has exactly one transparent input');
        return buildShieldFrom(first, request);
      }
      return buildRingSpendFrom(request);
    },
    signRingMessage(text, message) {
      const account = ownAccount(text);
      // The largest ring the chain allows (16) that its mature outputs can fill; a public chain's rings are exactly
      // 16, and no chain signs with fewer than 2 (a ring of one names its signer): too few outputs is refused.
      const candidates = outputs.decoyCandidates(new Set());
      const size = Math.min(rules.ringSizeMax, candidates.length + 1);
      const least = Math.max(rules.ringSizeMin, messageRingSizeMin);
      if (size < least) refuse('not_enough_decoys', `a ring of ${least} needs ${least - 1} mature confidential outputs on chain; it has ${candidates.length}`);
      const decoys = drawUniform(candidates, size - 1, random).map((m) => m.oneTimeKey);
      return signRingMessage(account.keys, message, decoys, random);
    },
    randomBytes: random,
    close() {
      clearTimeout(pending);
      outputs.close();
    },
  };
}
