/**
 * Escrows from the tab (docs/settlement.md "Escrows"): the escrow_create and escrow_reclaim kinds are built and
 * signed here with the wallet's key (signAgentTransaction, role 0: the client's own key) and only their canonical
 * bytes leave the tab, through the public send_raw_transaction; the node's hash must be the one the tab computed.
 *
 * What the chain would check is first proven against headers the tab's light node verified itself: the agent
 * account exists and is not frozen (get_agent_account with its state proof), the balance covers amount + fee
 * (get_proof), and the escrow is EscrowLocked and timed out before a reclaim (get_escrow with its state proof). The
 * timeout the user gives in blocks becomes a DAA score: the proven header's DAA score + blocks. Errors about one
 * input are FieldErrors (`agent`, `amount`, …), which the pages show beside that field.
 */
import { blake3 } from '../../src/crypto/blake3.ts';
import { decodeAddress } from '../../src/crypto/address.ts';
import { SignerRole, type AgentTransaction } from '../../src/kinds/agent/envelope.ts';
import { signAgentTransaction } from '../../src/kinds/agent/sign-agent-transaction.ts';
import { escrowCreateKind, type EscrowCreatePayload } from '../../src/kinds/escrow/escrow-create.ts';
import type { EscrowIdPayload } from '../../src/kinds/escrow/escrow-id-payload.ts';
import { escrowReclaimKind } from '../../src/kinds/escrow/escrow-reclaim.ts';
import { escrowIdOf, escrowStatusName, type EscrowRecord } from '../../src/kinds/escrow/escrow-record.ts';
import type { TxKindModule } from '../../src/kinds/kind.ts';
import type { LightChainView } from '../../src/light/light-chain.ts';
import { verifyRecordProof } from '../../src/light/verify-account.ts';
import type { Wallet } from '../../src/wallet/wallet.ts';
import { equalBytes, fromHex, toHash0x, toHex } from '../../src/util/bytes.ts';
import { checkWhenHeaderKnown, type ProofOutcome } from '../light/proof-wait.ts';
import { freshnessText } from '../../src/light/freshness.ts';
import { fetchVerifiedBalance } from '../light/verified-balance.ts';
import { nextNonce, type PendingOwn } from './wallet-history.ts';
import { getAgentAccount, getEscrow, sendRawTransaction } from '../../packages/client/src/index.ts';
import type { NodeClient } from '../lib/node-client.ts';
import { parseEscrowDraft, reclaimability, type EscrowDraft, type EscrowStanding, type ParsedEscrow } from './escrow-check.ts';
import { FieldError } from './form-errors.ts';
import { browserRandomBytes } from './wallet-keys.ts';
import { insufficientMessage, parseCoinText, parseRecipient } from './send-check.ts';

export interface EscrowRequest extends EscrowDraft {
  /** The client: one of the wallet's standard addresses. */
  readonly from: string;
}

/** An escrow checked against records proven just now: what the review step shows and what will be signed. */
export interface PreparedEscrow {
  readonly request: EscrowRequest;
  readonly parsed: ParsedEscrow;
  readonly from: Uint8Array;
  readonly total: bigint;
  readonly balance: bigint;
  readonly balanceBlock: string;
  /** "verified at block N, 3 s ago" (src/light/freshness.ts). */
  readonly balanceAge: string;
  readonly remaining: bigint;
  readonly nonce: bigint;
  /** DAA score of the verified header the agent account was proven against, and the timeout from it. */
  readonly provenDaaScore: bigint;
  readonly timeoutDaaScore: bigint;
  readonly escrowId: Uint8Array;
}

export interface SentTransaction {
  readonly hash: string;
  readonly status: string;
}

const daaScoreOf = (chain: Pick<LightChainView, 'get'>, blockHash: string): bigint => BigInt(chain.get(blockHash.slice(2))!.header.daaScore);

/** An agent account as a verified header commits it: whether it exists and is frozen, and that header's DAA score. */
export interface VerifiedAgent {
  readonly exists: boolean;
  readonly frozen: boolean;
  readonly daaScore: bigint;
}

/** Reads the agent account with get_agent_account and checks its proof against the light node's headers (throws if it fails). */
export async function fetchVerifiedAgent(link: NodeClient, chain: LightChainView, agentText: string, agent: Uint8Array): Promise<VerifiedAgent> {
  const outcome = await checkWhenHeaderKnown(
    async () => (await getAgentAccount(link, { agent_account: agentText, proof: true })).proof,
    (proof) => verifyRecordProof(chain, 'agent', agent, proof),
  );
  if (!outcome.ok) throw new Error(`cannot check the agent account: its proof failed (${outcome.error.reason}: ${outcome.error.message})`);
  const { record, blockHash } = outcome.value;
  return { exists: record !== null, frozen: record?.frozen ?? false, daaScore: daaScoreOf(chain, blockHash) };
}

/** The agent account proven to exist and not be frozen (FieldError `agent` if not). */
async function provenAgent(link: NodeClient, chain: LightChainView, agentText: string, agent: Uint8Array): Promise<VerifiedAgent> {
  const verified = await fetchVerifiedAgent(link, chain, agentText, agent);
  if (!verified.exists) throw new FieldError('agent', 'agent: no agent account at this address (verified): an escrow needs an existing agent account');
  if (verified.frozen) throw new FieldError('agent', 'agent: this agent account is frozen (verified): no escrow can be created for it now');
  return verified;
}

/** The verified balance of `from`, which must cover `total` (FieldError `amount` if not), and the next nonce. */
async function provenFunds(link: NodeClient, chain: LightChainView, from: string, total: bigint, pendingOwn: PendingOwn) {
  const proven = await fetchVerifiedBalance(chain, link, from);
  if (!proven.ok) throw new Error(`cannot pay: balance proof failed (${proven.error.message})`);
  const { balance, nonce, blockHash, blockHeight, timestampMs } = proven.account;
  if (balance < total) throw new FieldError('amount', insufficientMessage(balance, total), 'insufficient_balance');
  return { balance, balanceBlock: blockHash, balanceAge: freshnessText(blockHeight, timestampMs, Date.now()), nonce: nextNonce(nonce, pendingOwn) };
}

export async function prepareEscrow(link: NodeClient, chain: LightChainView, wallet: Wallet, request: EscrowRequest, pendingOwn: PendingOwn): Promise<PreparedEscrow> {
  const hrp = wallet.network.hrp;
  const from = parseRecipient(request.from, hrp, 'from');
  const parsed = parseEscrowDraft(request, { hrp, client: from });
  const agent = await provenAgent(link, chain, request.agent.trim(), parsed.agent);
  const total = parsed.amount + parsed.fee;
  const funds = await provenFunds(link, chain, request.from, total, pendingOwn);
  return {
    request, parsed, from, total, ...funds, remaining: funds.balance - total,
    provenDaaScore: agent.daaScore,
    timeoutDaaScore: agent.daaScore + parsed.timeoutBlocks,
    escrowId: escrowIdOf(from, funds.nonce),
  };
}

/** Signs an agent-envelope kind with the payer's own key (role 0) in the tab and submits it; checks the node's hash. */
async function signAndSubmit<K extends number, P>(link: NodeClient, wallet: Wallet, kind: TxKindModule<AgentTransaction<K, P>>, payer: Uint8Array, fields: { fee: bigint; nonce: bigint; payload: P }): Promise<SentTransaction> {
  const key = wallet.privateKeyOf(payer.subarray(1));
  if (key === undefined) throw new FieldError('from', `from: address is not in wallet "${wallet.name}"`);
  const unsigned = { kind: kind.tag as K, chainId: wallet.network.chainId, payer, signerRole: SignerRole.Key, signer: payer.subarray(1), sessionKeyId: 0n, useEnergy: false, ...fields };
  const bytes = kind.encode(signAgentTransaction(kind, unsigned, key, browserRandomBytes(32)));
  const hash = toHash0x(blake3(bytes));
  const answer = await sendRawTransaction(link, { transaction: `0x${toHex(bytes)}` });
  if (answer.hash !== hash) throw new Error(`node answered hash ${answer.hash}, the tab computed ${hash}`);
  return answer;
}

/** Signs the prepared escrow_create in the tab and submits it. */
export async function submitEscrow(link: NodeClient, wallet: Wallet, escrow: PreparedEscrow): Promise<SentTransaction & { escrowId: string }> {
  const { parsed } = escrow;
  const payload: EscrowCreatePayload = {
    agent: parsed.agent, taskHash: parsed.taskHash, amount: parsed.amount, timeoutDaaScore: escrow.timeoutDaaScore, disputeWindow: parsed.disputeWindow, arbiter: parsed.arbiter,
  };
  const sent = await signAndSubmit(link, wallet, escrowCreateKind, escrow.from, { fee: parsed.fee, nonce: escrow.nonce, payload });
  return { ...sent, escrowId: toHash0x(escrow.escrowId) };
}

export interface VerifiedEscrow extends EscrowStanding {
  readonly record: EscrowRecord | null;
  readonly blockHash: string;
}

/** The escrow `id` (0x-hex) as a header the light node verified commits it; a failed proof is `ok: false`. */
export async function fetchVerifiedEscrow(link: NodeClient, chain: LightChainView, id: string): Promise<ProofOutcome<VerifiedEscrow>> {
  return checkWhenHeaderKnown(async () => (await getEscrow(link, { escrow_id: id, proof: true })).proof, (proof) => {
    const verified = verifyRecordProof(chain, 'escrow', fromHex(id.slice(2)), proof);
    const record = verified.record;
    return {
      record,
      blockHash: verified.blockHash,
      status: record === null ? 'None' : escrowStatusName(record.status),
      timeoutDaaScore: record?.timeoutDaaScore ?? 0n,
      provenDaaScore: daaScoreOf(chain, verified.blockHash),
    };
  });
}

/**
 * Reclaims escrow `id` for its client, a wallet address: proven EscrowLocked and timed out just now, the fee
 * covered by the verified balance; then escrow_reclaim is signed in the tab and submitted.
 */
export async function reclaimEscrow(link: NodeClient, chain: LightChainView, wallet: Wallet, id: string, options: { fee: string; pendingOwn: (client: string) => PendingOwn }): Promise<SentTransaction & { client: string; nonce: bigint }> {
  const proven = await fetchVerifiedEscrow(link, chain, id);
  if (!proven.ok) throw new Error(`cannot reclaim: the escrow's proof failed (${proven.error.reason}: ${proven.error.message})`);
  const check = reclaimability(proven.value);
  if (!check.ok) throw new Error(`cannot reclaim: ${check.reason}`);
  const client = proven.value.record!.client;
  const clientText = wallet.addresses().find((a) => a.type === 'standard' && equalBytes(decodeAddress(a.text, wallet.network.hrp), client))?.text;
  if (clientText === undefined) throw new Error(`cannot reclaim: the escrow's client is not an address of wallet "${wallet.name}"`);
  const fee = parseCoinText(options.fee, 'fee', true);
  const funds = await provenFunds(link, chain, clientText, fee, options.pendingOwn(clientText));
  const payload: EscrowIdPayload = { escrowId: fromHex(id.slice(2)) };
  const sent = await signAndSubmit(link, wallet, escrowReclaimKind, client, { fee, nonce: funds.nonce, payload });
  return { ...sent, client: clientText, nonce: funds.nonce };
}
