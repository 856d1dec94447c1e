/**
 * The node's A2A endpoint (docs/a2a.md), mounted on the HTTP app once the ports are known: its HTTP routes, its
 * WebSocket, its gRPC service when gRPC runs, tasks kept in the node's store, settlement through escrows paying
 * --agent-account (docs/settlement.md), OAuth bearer tokens of the node's own authorization server as credentials.
 */
import type { Server } from 'node:http';
import type { Hono } from 'hono';
import { decodeAddress } from '../../../src/crypto/address.ts';
import { coinsToUnits } from '../../../src/crypto/amount.ts';
import { decodeAgentRecord } from '../../../src/kinds/agent/agent-record.ts';
import type { Dispatcher } from '../../../src/rpc/dispatcher.ts';
import type { Ledger } from '../../../src/state/ledger.ts';
import { fromHex, toHex } from '../../../src/util/bytes.ts';
import { registerA2aGrpc } from '../../a2a/grpc.ts';
import { mountA2a } from '../../a2a/http.ts';
import { createNodeA2aService } from '../../a2a/node-a2a.ts';
import { attachA2aWebSocket } from '../../a2a/ws.ts';
import type { AccessControl } from '../../auth/access-control.ts';
import type { NodeConfig } from '../../config.ts';
import { nodeVersion, type MountedServers } from '../../http/start-api.ts';
import type { ChainParts, LateParts } from './node-state.ts';

/** Fee of the node's own claims: a claim is ~200 bytes, far above the minimum rate; paid from the pool when it can. */
const claimFeeCoins = 0.0001;

export interface A2aMount {
  readonly app: Hono;
  readonly servers: MountedServers;
  readonly access: AccessControl;
  readonly dispatcher: () => Dispatcher;
}

export async function mountNodeA2a(parts: ChainParts, late: LateParts, mount: A2aMount): Promise<void> {
  const { config, chain, ledger, store } = parts;
  const { app, servers } = mount;
  const a2a = await createNodeA2aService({
    chain,
    ledger,
    kv: store,
    baseUrl: `http://${config.host}:${servers.httpPort}`,
    ...(servers.grpc ? { grpcTarget: `${config.host}:${servers.grpc.port}` } : {}),
    network: config.network,
    version: nodeVersion,
    // push-allow-hosts: webhook receivers on private networks the operator allows (docs/a2a.md "Push notifications").
    pushAllowHosts: config.pushAllowHosts,
    // agent-account: tasks may be settled through escrows paying it (docs/settlement.md).
    ...(config.agentAccount ? { agentAccount: decodeAddress(config.agentAccount, config.params.hrp), claims: nodeClaims(config, mount.dispatcher, ledger), ...(config.agentClaimMarginDaa === undefined ? {} : { claimMarginDaa: config.agentClaimMarginDaa }) } : {}),
    auth: a2aAuth(config, servers, mount.access),
  });
  late.a2a = a2a;
  mountA2a(app, a2a);
  late.a2aWs = attachA2aWebSocket(servers.httpServer as Server, a2a);
  if (servers.grpc) registerA2aGrpc(servers.grpc.server, a2a);
}

/** OAuth access tokens of the node's own authorization server are A2A bearer credentials (docs/a2a.md). */
function a2aAuth(config: NodeConfig, servers: MountedServers, access: AccessControl) {
  const base = `http://${config.host}:${servers.httpPort}`;
  return {
    required: false,
    // The gRPC port admits only mutually authenticated TLS: its callers are `mtls:<fingerprint>` principals.
    mtls: servers.grpc !== undefined,
    bearer: async (token: string) => {
      const check = access.grants.checkAccess(token);
      return check.ok ? { id: `bearer:${check.clientId}`, scheme: 'bearer' as const, scopes: check.scopes } : undefined;
    },
    oauth: {
      metadataUrl: `${base}/.well-known/oauth-authorization-server`,
      authorizationUrl: `${base}/oauth/authorize`,
      tokenUrl: `${base}/oauth/token`,
      scopes: { read_balance: 'owner views of balances and history', send_transactions: 'wallet and signing methods', mine_blocks: 'mining control' },
    },
  };
}

/**
 * How the A2A endpoint claims a completed task's escrow (src/a2a/settlement-follower.ts): the node's own claim_escrow
 * method, signed by the node wallet with the `agent-session-key-id` session key (or the agent's own key), the fee
 * from the agent's energy pool when it covers it; and where the claim transaction stands.
 */
function nodeClaims(config: NodeConfig, dispatcher: () => Dispatcher, ledger: Ledger) {
  const agent = decodeAddress(config.agentAccount!, config.params.hrp);
  return {
    async submitClaim(escrowId: Uint8Array): Promise<string> {
      const record = ledger.getRecord('agent', agent);
      const pool = record === undefined ? 0n : decodeAgentRecord(record).energyPool;
      const signer = config.agentSessionKeyId === undefined ? {} : { signer_role: 'session_key', session_key_id: config.agentSessionKeyId };
      const params = { escrow_id: `0x${toHex(escrowId)}`, fee: claimFeeCoins, use_energy: pool >= coinsToUnits(claimFeeCoins), ...signer };
      const result = (await dispatcher().call('claim_escrow', params, { transport: 'http', id: undefined })) as { hash: string };
      return result.hash;
    },
    transactionStatus(hash: string) {
      const bytes = fromHex(hash.slice(2));
      return dispatcher().services.ledger?.getTransaction(bytes)?.status ?? dispatcher().services.mempool?.get(bytes)?.status;
    },
  };
}
