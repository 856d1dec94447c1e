/**
 * The node's JSON-RPC methods as typed actions, one per file (viem's shape): `getBalance(client, params)` on any
 * RpcClient (web/lib/node-client.ts: the WebSocket client, or createHttpClient for calls that carry an API key).
 * Params and results are the method's own zod schemas' types (src/rpc/methods/, docs/api.md "Typed results"); the
 * answer is not parsed at run time. Subscriptions stay on NodeClient.subscribe.
 */
export { createAddress, type CreateAddressParameters, type CreateAddressReturnType } from './create-address.ts';
export {
  createConfidentialTransaction,
  type CreateConfidentialTransactionParameters,
  type CreateConfidentialTransactionReturnType,
} from './create-confidential-transaction.ts';
export { generateStealthAddress, type GenerateStealthAddressParameters, type GenerateStealthAddressReturnType } from './generate-stealth-address.ts';
export { getBalance, type GetBalanceParameters, type GetBalanceReturnType } from './get-balance.ts';
export { getBlock, type GetBlockParameters, type GetBlockReturnType } from './get-block.ts';
export { getBlockHeight, type GetBlockHeightParameters, type GetBlockHeightReturnType } from './get-block-height.ts';
export { getBlockTemplate, type GetBlockTemplateParameters, type GetBlockTemplateReturnType } from './get-block-template.ts';
export { getHeight, type GetHeightParameters, type GetHeightReturnType } from './get-height.ts';
export { getInfo, type GetInfoParameters, type GetInfoReturnType } from './get-info.ts';
export { getLatestBlock, type GetLatestBlockParameters, type GetLatestBlockReturnType } from './get-latest-block.ts';
export { getMiningInfo, type GetMiningInfoParameters, type GetMiningInfoReturnType } from './get-mining-info.ts';
export { getMiningStats, type GetMiningStatsParameters, type GetMiningStatsReturnType } from './get-mining-stats.ts';
export { getNetworkInfo, type GetNetworkInfoParameters, type GetNetworkInfoReturnType } from './get-network-info.ts';
export { getPeers, type GetPeersParameters, type GetPeersReturnType } from './get-peers.ts';
export { getProof, type GetProofParameters, type GetProofReturnType } from './get-proof.ts';
export { getTransaction, type GetTransactionParameters, type GetTransactionReturnType } from './get-transaction.ts';
export { getTransactionHistory, type GetTransactionHistoryParameters, type GetTransactionHistoryReturnType } from './get-transaction-history.ts';
export { getRewardHistory, type GetRewardHistoryParameters, type GetRewardHistoryReturnType } from './get-reward-history.ts';
export { getTransactionProof, type GetTransactionProofParameters, type GetTransactionProofReturnType } from './get-transaction-proof.ts';
export { sendRawTransaction, type SendRawTransactionParameters, type SendRawTransactionReturnType } from './send-raw-transaction.ts';
export { sendTransaction, type SendTransactionParameters, type SendTransactionReturnType } from './send-transaction.ts';
export { signMessage, type SignMessageParameters, type SignMessageReturnType } from './sign-message.ts';
export { startMining, type StartMiningParameters, type StartMiningReturnType } from './start-mining.ts';
export { stopMining, type StopMiningParameters, type StopMiningReturnType } from './stop-mining.ts';
export { submitBlock, type SubmitBlockParameters, type SubmitBlockReturnType } from './submit-block.ts';
export { verifyMessage, type VerifyMessageParameters, type VerifyMessageReturnType } from './verify-message.ts';
export { deploySmartContract, type DeploySmartContractParameters, type DeploySmartContractReturnType } from './deploy-smart-contract.ts';
export { callSmartContract, type CallSmartContractParameters, type CallSmartContractReturnType } from './call-smart-contract.ts';
export { getContractState, type GetContractStateParameters, type GetContractStateReturnType } from './get-contract-state.ts';
export { getMempool, type GetMempoolParameters, type GetMempoolReturnType } from './get-mempool.ts';
export { getSupply, type GetSupplyParameters, type GetSupplyReturnType } from './get-supply.ts';
export { getAgentAccount, type GetAgentAccountParameters, type GetAgentAccountReturnType } from './get-agent-account.ts';
export { getEscrow, type GetEscrowParameters, type GetEscrowReturnType } from './get-escrow.ts';
export { createAgentAccount, type CreateAgentAccountParameters, type CreateAgentAccountReturnType } from './create-agent-account.ts';
export { addSessionKey, type AddSessionKeyParameters, type AddSessionKeyReturnType } from './add-session-key.ts';
export { revokeSessionKey, type RevokeSessionKeyParameters, type RevokeSessionKeyReturnType } from './revoke-session-key.ts';
export { setAgentController, type SetAgentControllerParameters, type SetAgentControllerReturnType } from './set-agent-controller.ts';
export { freezeAgentAccount, type FreezeAgentAccountParameters, type FreezeAgentAccountReturnType } from './freeze-agent-account.ts';
export { fundEnergyPool, type FundEnergyPoolParameters, type FundEnergyPoolReturnType } from './fund-energy-pool.ts';
export { createEscrow, type CreateEscrowParameters, type CreateEscrowReturnType } from './create-escrow.ts';
export { claimEscrow, type ClaimEscrowParameters, type ClaimEscrowReturnType } from './claim-escrow.ts';
export { reclaimEscrow, type ReclaimEscrowParameters, type ReclaimEscrowReturnType } from './reclaim-escrow.ts';
export { disputeEscrow, type DisputeEscrowParameters, type DisputeEscrowReturnType } from './dispute-escrow.ts';
export { resolveEscrow, type ResolveEscrowParameters, type ResolveEscrowReturnType } from './resolve-escrow.ts';
