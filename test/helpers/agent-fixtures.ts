// Fixtures for the agent and escrow kinds: named actors, signed agent transactions with automatic nonces, and a
// ledger simulated over maps that accepts one-block mergesets through the real acceptMergeset (fast, no chain) and
// answers a transaction's checkContext reason through a view that throws on any write.
import { regtestParams } from '../../src/consensus/params.ts';
import { publicKeyFromPrivate } from '../../src/crypto/keys.ts';
import { agentAddSessionKeyKind } from '../../src/kinds/agent/agent-add-session-key.ts';
import { agentCreateKind } from '../../src/kinds/agent/agent-create.ts';
import { agentFundEnergyPoolKind } from '../../src/kinds/agent/agent-fund-energy-pool.ts';
import { decodeAgentRecord, sessionScopeBit, sessionScopeMask, type AgentRecord } from '../../src/kinds/agent/agent-record.ts';
import { TxKind } from '../../src/codec/transaction-kinds.ts';
import type { AgentTransaction } from '../../src/kinds/agent/envelope.ts';
import { signAgentTransaction } from '../../src/kinds/agent/sign-agent-transaction.ts';
import { decodeEscrowRecord, escrowedAmount, type EscrowRecord } from '../../src/kinds/escrow/escrow-record.ts';
import type { TxKindModule, TxStateView } from '../../src/kinds/kind.ts';
import { kindOf } from '../../src/kinds/registry.ts';
import { emptyStoredAccount, type StoredAccount } from '../../src/state/account-codec.ts';
import { acceptMergeset } from '../../src/state/acceptance.ts';
import { settleEnergy } from '../../src/state/energy.ts';
import { stateKey } from '../../src/state/namespaces.ts';
import { toHex } from '../../src/util/bytes.ts';
import { wallet } from './ledger-fixtures.ts';

export const chainId = regtestParams.chainId;

export interface Actor {
  readonly privateKey: Uint8Array;
  readonly publicKey: Uint8Array;
  readonly address: Uint8Array;
}

export function actor(seed: number): Actor {
  const { privateKey, address } = wallet(seed);
  return { privateKey, publicKey: publicKeyFromPrivate(privateKey), address };
}

export interface SendOptions {
  /** Whose nonce and funds; default the signer's own address (role 0). */
  readonly payer?: Uint8Array;
  readonly role?: 0 | 1 | 2;
  readonly sessionKeyId?: bigint;
  readonly fee?: bigint;
  readonly useEnergy?: boolean;
  /** Default: the payer's next nonce (see SimLedger.tx). */
  readonly nonce?: bigint;
}

export function signed<K extends number, P>(
  kind: TxKindModule<AgentTransaction<K, P>>,
  payload: P,
  signer: Actor,
  nonce: bigint,
  options: SendOptions = {},
): AgentTransaction<K, P> {
  return signAgentTransaction(
    kind,
    {
      kind: kind.tag as K,
      chainId,
      payer: options.payer ?? signer.address,
      signerRole: options.role ?? 0,
      signer: signer.publicKey,
      sessionKeyId: options.sessionKeyId ?? 0n,
      fee: options.fee ?? 1_000n,
      nonce,
      useEnergy: options.useEnergy ?? false,
      payload,
    },
    signer.privateKey,
    new Uint8Array(32),
  );
}

const miner = actor(99).address;

/** A ledger over maps, advanced one single-block mergeset at a time through acceptMergeset; rules v2 from `rulesV2At` (default never). */
export function createSimLedger(funded: ReadonlyArray<readonly [Uint8Array, bigint]>, options: { readonly rulesV2At?: number } = {}) {
  const rulesV2At = options.rulesV2At ?? Number.MAX_SAFE_INTEGER;
  const accounts = new Map<string, { address: Uint8Array; account: StoredAccount }>();
  const records = new Map<string, Uint8Array>();
  let emitted = 0n;
  for (const [address, balance] of funded) {
    accounts.set(toHex(address), { address, account: { ...emptyStoredAccount, balance } });
    emitted += balance;
  }
  const built = new Map<string, bigint>();
  let daaScore = 1;
  let blocks = 0;

  const stored = (address: Uint8Array): StoredAccount => accounts.get(toHex(address))?.account ?? emptyStoredAccount;
  const record = (namespace: 'agent' | 'escrow', id: Uint8Array) => records.get(toHex(stateKey(namespace, id)));

  return {
    get daaScore() {
      return daaScore;
    },
    /** Sets the DAA score of the next block (never backwards). */
    at(score: number) {
      if (score < daaScore) throw new Error('the DAA score never goes back');
      daaScore = score;
    },
    account: (address: Uint8Array) => settleEnergy(stored(address), daaScore),
    agent: (address: Uint8Array): AgentRecord | undefined => {
      const value = record('agent', address);
      return value === undefined ? undefined : decodeAgentRecord(value);
    },
    escrow: (id: Uint8Array): EscrowRecord | undefined => {
      const value = record('escrow', id);
      return value === undefined ? undefined : decodeEscrowRecord(value);
    },
    /** A signed transaction using the payer's next nonce (counting those built since the last block). */
    tx<K extends number, P>(kind: TxKindModule<AgentTransaction<K, P>>, payload: P, signer: Actor, options: SendOptions = {}) {
      const payer = options.payer ?? signer.address;
      const key = toHex(payer);
      const nonce = options.nonce ?? stored(payer).nonce + (built.get(key) ?? 0n);
      if (options.nonce === undefined) built.set(key, (built.get(key) ?? 0n) + 1n);
      return signed(kind, payload, signer, nonce, { ...options, payer });
    },
    /** What checkContext says about `tx` now, through a view that throws on any write. */
    reason(tx: AgentTransaction): string | undefined {
      const refuseWrite = (): never => {
        throw new Error('checkContext wrote state');
      };
      const view: TxStateView = {
        daaScore,
        rulesV2: daaScore >= rulesV2At,
        account: (address) => settleEnergy(stored(address), daaScore),
        setAccount: refuseWrite,
        credit: refuseWrite,
        record: (namespace, id) => records.get(toHex(stateKey(namespace, id))),
        setRecord: refuseWrite,
        carrier: () => ({ daaScore, timestampMs: 0 }),
      };
      return kindOf(tx).checkContext(view, tx);
    },
    /**
     * Accepts `txs` as one block merged at the current DAA score, then moves the score `advance` steps on (default
     * one); the accepted flags.
     */
    block(txs: readonly AgentTransaction[] | readonly { kind: number; chainId: number }[], advance = 1): boolean[] {
      built.clear();
      const result = acceptMergeset({
        read: (address) => accounts.get(toHex(address))?.account,
        readRecord: (key) => records.get(toHex(key)),
        merged: [{ id: (blocks++).toString(16).padStart(64, '0'), miner, daaScore, blue: true, transactions: txs.map((tx) => ({ tx })) }],
        mergingMiner: miner,
        daaScore,
        emittedBefore: emitted,
        rulesV2: daaScore >= rulesV2At,
      });
      for (const [key, change] of result.changes) accounts.set(key, change);
      for (const [key, change] of result.records) {
        if (change.value === null) records.delete(key);
        else records.set(key, change.value);
      }
      emitted = result.emitted;
      daaScore += advance;
      return [...result.blocks[0]!.accepted];
    },
    /**
     * The coin audit: balances, the energy pools of `agents`, the amounts `escrowIds` still hold (burnt: none) against
     * emission; every stored record must be one of those named, so no coins hide in a record the audit skipped.
     */
    audit(agents: readonly Uint8Array[], escrowIds: readonly Uint8Array[]) {
      let balances = 0n;
      for (const { account } of accounts.values()) balances += account.balance;
      let pools = 0n;
      let escrowed = 0n;
      let seen = 0;
      for (const address of agents) {
        const value = record('agent', address);
        if (value !== undefined) (pools += decodeAgentRecord(value).energyPool), seen++;
      }
      // The same id may be named twice (a rollback and the same payer nonce again): count each record once.
      for (const id of new Map(escrowIds.map((e) => [toHex(e), e])).values()) {
        const value = record('escrow', id);
        if (value !== undefined) (escrowed += escrowedAmount(decodeEscrowRecord(value))), seen++;
      }
      if (seen !== records.size) throw new Error(`${records.size - seen} stored records the audit did not name`);
      return { balances, pools, escrowed, burnt: 0n, emitted };
    },
    /** The whole state, to go back to (a reorg to a fork point); `restore` puts it back. */
    snapshot() {
      return { accounts: new Map(accounts), records: new Map(records), emitted, daaScore };
    },
    restore(saved: { accounts: typeof accounts; records: typeof records; emitted: bigint; daaScore: number }) {
      accounts.clear();
      for (const [k, v] of saved.accounts) accounts.set(k, v);
      records.clear();
      for (const [k, v] of saved.records) records.set(k, v);
      emitted = saved.emitted;
      daaScore = saved.daaScore;
      built.clear();
    },
    /** The stored records by trie key (read-only use). */
    records: records as ReadonlyMap<string, Uint8Array>,
  };
}

export type SimLedger = ReturnType<typeof createSimLedger>;

/** The actors of the agent and escrow tests: the agent account is the owner's address. */
export const owner = actor(1);
export const controller = actor(2);
export const session = actor(3);
export const client = actor(4);
export const arbiter = actor(5);
export const stranger = actor(6);

/**
 * What an A2A agent node needs on chain to claim its escrows: `owner`'s agent account (controller `controller`) and
 * a session key scoped for escrow claims only, whose private key the node's wallet holds.
 */
export function claimingAgentTransactions(
  sessionKey: Uint8Array,
  ownerNonce: bigint,
  limits: { txCap: bigint; totalCap: bigint; expiryDaaScore: bigint } = { txCap: 10n ** 8n, totalCap: 10n ** 9n, expiryDaaScore: 100_000n },
) {
  return [
    signed(agentCreateKind, { controller: controller.publicKey, identityProofHash: undefined }, owner, ownerNonce),
    signed(agentAddSessionKeyKind, { publicKey: sessionKey, allowedKinds: sessionScopeBit.get(TxKind.EscrowClaim)!, ...limits }, owner, ownerNonce + 1n),
  ];
}

export const sessionTxCap = 1_000_000n;
export const sessionTotalCap = 1_500_000n;

/**
 * An agent account (owner, controller) with session key 1 (every scope bit, the caps above, expiry 1000) and a pool
 * of 5,000; the client, the arbiter and a stranger hold coins.
 */
export function agentLedger(options: { readonly rulesV2At?: number } = {}): SimLedger {
  const sim = createSimLedger(
    [
      [owner.address, 10n ** 12n],
      [client.address, 10n ** 12n],
      [arbiter.address, 10n ** 10n],
      [stranger.address, 10n ** 10n],
    ],
    options,
  );
  const accepted = sim.block([
    sim.tx(agentCreateKind, { controller: controller.publicKey, identityProofHash: undefined }, owner),
    sim.tx(agentAddSessionKeyKind, { publicKey: session.publicKey, allowedKinds: sessionScopeMask, txCap: sessionTxCap, totalCap: sessionTotalCap, expiryDaaScore: 1000n }, owner),
    sim.tx(agentFundEnergyPoolKind, { agent: owner.address, amount: 5_000n }, owner),
  ]);
  if (!accepted.every(Boolean)) throw new Error(`agent setup not accepted: ${accepted}`);
  return sim;
}
