/**
 * The node's A2A endpoint with the built-in Weft agent: tasks in the node's store (the same LMDB environment as the
 * chain, under the 'a' tables of src/a2a/task-store.ts), chain reads through the ledger, mining jobs on the node's
 * PoW backend (the JS reference backend when none is handed in). The composition root mounts the result:
 *
 *   const a2a = await createNodeA2aService({ config, chain, ledger, kv: store, baseUrl });
 *   mountA2a(api.app, a2a);                          // card, JSON-RPC /a2a, HTTP+JSON, SSE (before the first request)
 *   attachA2aWebSocket(httpServer, a2a);            // /a2a/ws on the HTTP port
 *   registerA2aGrpc(grpcServer, a2a);               // lf.a2a.v1.A2AService on the gRPC port
 *
 * The parts are in server/a2a/node/: ledger-views.ts (transactions, escrows, the agent's identity), card.ts and
 * follow-settlement.ts (the settlement follower on the ledger's acceptances); this file wires them.
 */
import type { A2aAuthConfig } from '../../src/a2a/auth.ts';
import { chainSigners, createChainSignatureVerifier, type AgentKeyReader, type ChainSignatureVerifier } from '../../src/a2a/chain-signature.ts';
import type { SettlementFollowerPorts } from '../../src/a2a/follower/state.ts';
import { createSettlementFollower, type SettlementFollower } from '../../src/a2a/settlement-follower.ts';
import { createWeftAgentExecutor } from '../../src/a2a/weft-agent.ts';
import type { Chain } from '../../src/chain/chain.ts';
import { addressBytes } from '../../src/crypto/address.ts';
import { decodeAgentRecord, sessionKeyOf } from '../../src/kinds/agent/agent-record.ts';
import type { PowBackend } from '../../src/mining/job.ts';
import { createReferencePowBackend } from '../../src/mining/reference-backend.ts';
import type { Ledger } from '../../src/state/ledger.ts';
import type { KvStore } from '../../src/storage/kv.ts';
import { systemClock } from '../../src/util/clock.ts';
import { nodeCardOptions } from './node/card.ts';
import { followSettlement } from './node/follow-settlement.ts';
import { chainIdentityOf, ledgerSettlementPolicy, ledgerTransactionFinder } from './node/ledger-views.ts';
import { createA2aService, type A2aService } from './service.ts';

export interface NodeA2aOptions {
  readonly chain: Chain;
  readonly ledger?: Ledger;
  readonly kv: KvStore;
  /** e.g. http://127.0.0.1:8080 — the card's JSON-RPC and HTTP+JSON URLs are built on it. */
  readonly baseUrl: string;
  /** host:port of the gRPC port when it serves A2A. */
  readonly grpcTarget?: string;
  /** The gRPC port requires mutual TLS (the node's always does): the card says so. Default true with grpcTarget. */
  readonly grpcMutualTls?: boolean;
  readonly network: string;
  readonly version: string;
  readonly pow?: PowBackend;
  /** Extra schemes (API keys, bearer verification by the OAuth server); chain signatures are always offered. */
  readonly auth?: Omit<A2aAuthConfig, 'chainSignature' | 'hrp'>;
  /** Local webhook receivers allowed past the SSRF guard. */
  readonly pushAllowHosts?: readonly string[];
  /** The agent account this endpoint settles tasks for (config `agent-account`): escrows must pay it. */
  readonly agentAccount?: Uint8Array;
  /**
   * How the node claims the escrow of a completed settled task and sees its transaction (start-node.ts: the
   * claim_escrow method signed by the node wallet); absent, nothing is claimed and anchors do not follow the chain.
   */
  readonly claims?: Pick<SettlementFollowerPorts, 'submitClaim' | 'transactionStatus'>;
  readonly onSettlementError?: (error: unknown) => void;
  /** Overrides settlementClaimMarginDaa (config `agent-claim-margin-daa`). */
  readonly claimMarginDaa?: number;
}

/** DAA score an escrow must still have before its timeout when a task starts: time for the task and the claim. */
const settlementClaimMarginDaa = 60;

/**
 * Controller and session keys of chain signatures, from the agent account's record in the node's committed state
 * (docs/a2a.md "Chain signature"): a session key expires at its `expiry_daa_score` against the virtual DAA score.
 */
function ledgerAgentKeys(ledger: Ledger): AgentKeyReader {
  const record = (account: Uint8Array) => {
    const value = account.length === addressBytes ? ledger.getRecord('agent', account) : undefined;
    return value === undefined ? undefined : decodeAgentRecord(value);
  };
  return {
    controllerKey: (account) => record(account)?.controller,
    sessionKey(account, id) {
      const agent = record(account);
      const key = agent && sessionKeyOf(agent, id);
      return key && { publicKey: key.publicKey, expired: key.expiryDaaScore <= BigInt(ledger.virtual().daaScore), revoked: key.revoked };
    },
    frozen: (account) => record(account)?.frozen ?? false,
  };
}

export async function createNodeA2aService(options: NodeA2aOptions): Promise<A2aService> {
  const { chain, ledger } = options;
  const params = chain.params;
  const agentAccount = ledger ? options.agentAccount : undefined;
  const settlement = ledger && agentAccount ? ledgerSettlementPolicy(ledger, agentAccount, params.hrp, options.claimMarginDaa ?? settlementClaimMarginDaa) : undefined;
  const executor = createWeftAgentExecutor({
    chain,
    pow: options.pow ?? createReferencePowBackend(),
    ...(ledger ? { accounts: ledger, findTransaction: ledgerTransactionFinder(chain, ledger) } : {}),
  });
  // The follower needs the runner (annotate) and the runner the follower (its terminal hook): bound once both exist.
  let follower: SettlementFollower | undefined;
  const service = await createA2aService({
    kv: options.kv,
    executor,
    ...(settlement ? { settlement, onTerminal: (task) => follower?.onTerminal(task) } : {}),
    auth: { required: false, ...options.auth, chainSignature: nodeChainSignatureVerifier(params.chainId, ledger), hrp: params.hrp },
    push: { allowHosts: options.pushAllowHosts ?? [] },
    card: nodeCardOptions({
      ...options,
      chainId: params.chainId,
      settles: settlement !== undefined,
      identity: ledger && agentAccount ? chainIdentityOf(ledger, agentAccount, params.hrp) : undefined,
    }),
  });
  if (settlement === undefined || options.claims === undefined) return service;
  follower = createSettlementFollower({
    readEscrow: settlement.readEscrow,
    ...options.claims,
    annotate: (taskId, metadata) => service.handler.runner.annotate(taskId, metadata),
    ...(options.onSettlementError ? { onError: options.onSettlementError } : {}),
  });
  return followSettlement(service, follower, ledger!);
}

/** Chain signatures; with a ledger, Controller and SessionKey signers are checked against the on-chain agent account. */
function nodeChainSignatureVerifier(chainId: number, ledger: Ledger | undefined): ChainSignatureVerifier {
  return createChainSignatureVerifier({
    chainId,
    clock: systemClock,
    ...(ledger ? { allowedSigners: [...chainSigners], agentKeys: ledgerAgentKeys(ledger) } : {}),
  });
}
