/**
 * Every JSON-RPC method the node serves, one line each. rpc.discover's OpenRPC document is generated from this same
 * table (openrpc.ts), and REST / gRPC route onto these entries, so the transports cannot drift apart.
 */
import type { AnyRpcMethod } from './method.ts';
import { callSmartContract } from './methods/call-smart-contract.ts';
import { createAddress } from './methods/create-address.ts';
import { createConfidentialTransaction } from './methods/create-confidential-transaction.ts';
import { deploySmartContract } from './methods/deploy-smart-contract.ts';
import { getBalance } from './methods/get-balance.ts';
import { getBlock } from './methods/get-block.ts';
import { getBlockHeight } from './methods/get-block-height.ts';
import { getBlockTemplate } from './methods/get-block-template.ts';
import { generateStealthAddress } from './methods/generate-stealth-address.ts';
import { getAgentAccount } from './methods/get-agent-account.ts';
import { getContractState } from './methods/get-contract-state.ts';
import { getEscrow } from './methods/get-escrow.ts';
import { getHeight } from './methods/get-height.ts';
import { getInfo } from './methods/get-info.ts';
import { getLatestBlock } from './methods/get-latest-block.ts';
import { getMempool } from './methods/get-mempool.ts';
import { getSupply } from './methods/get-supply.ts';
import { getMiningInfo } from './methods/get-mining-info.ts';
import { getMiningStats } from './methods/get-mining-stats.ts';
import { getNetworkInfo } from './methods/get-network-info.ts';
import { getPeers } from './methods/get-peers.ts';
import { getProof } from './methods/get-proof.ts';
import { getTransaction } from './methods/get-transaction.ts';
import { getTransactionHistory } from './methods/get-transaction-history.ts';
import { getRewardHistory } from './methods/get-reward-history.ts';
import { getTransactionProof } from './methods/get-transaction-proof.ts';
import { sendRawTransaction } from './methods/send-raw-transaction.ts';
import { sendTransaction } from './methods/send-transaction.ts';
import { signMessage } from './methods/sign-message.ts';
import { startMining } from './methods/start-mining.ts';
import { stopMining } from './methods/stop-mining.ts';
import { submitBlock } from './methods/submit-block.ts';
import { subscribe, unsubscribe } from './methods/subscribe.ts';
import { verifyMessage } from './methods/verify-message.ts';
// Agent accounts and escrows from the node wallet (docs/settlement.md).
import { createAgentAccount } from './methods/create-agent-account.ts';
import { addSessionKey } from './methods/add-session-key.ts';
import { revokeSessionKey } from './methods/revoke-session-key.ts';
import { setAgentController } from './methods/set-agent-controller.ts';
import { freezeAgentAccount } from './methods/freeze-agent-account.ts';
import { fundEnergyPool } from './methods/fund-energy-pool.ts';
import { createEscrow } from './methods/create-escrow.ts';
import { claimEscrow } from './methods/claim-escrow.ts';
import { reclaimEscrow } from './methods/reclaim-escrow.ts';
import { disputeEscrow } from './methods/dispute-escrow.ts';
import { resolveEscrow } from './methods/resolve-escrow.ts';

/** The table with each entry's own type: what packages/client derives every method's params and result from. */
const methodTable = [
  getNetworkInfo,
  getInfo,
  getHeight,
  getBlockHeight,
  getBlock,
  getLatestBlock,
  sendTransaction,
  sendRawTransaction,
  getTransaction,
  getTransactionHistory,
  getRewardHistory,
  getTransactionProof,
  getBalance,
  getProof,
  createAddress,
  signMessage,
  verifyMessage,
  getMiningInfo,
  startMining,
  stopMining,
  getMiningStats,
  getBlockTemplate,
  submitBlock,
  getPeers,
  subscribe,
  unsubscribe,
  deploySmartContract,
  callSmartContract,
  getContractState,
  createConfidentialTransaction,
  generateStealthAddress,
  getMempool,
  getSupply,
  getAgentAccount,
  getEscrow,
  createAgentAccount,
  addSessionKey,
  revokeSessionKey,
  setAgentController,
  freezeAgentAccount,
  fundEnergyPool,
  createEscrow,
  claimEscrow,
  reclaimEscrow,
  disputeEscrow,
  resolveEscrow,
] as const;

export type RpcMethodTable = typeof methodTable;
export const rpcMethods: readonly AnyRpcMethod[] = methodTable;
