/**
 * One function per JSON-RPC method (viem's actions): `getBlock(client, { height })`. Each is typed from the node's
 * method table (schema.ts), so this list holds names only; `satisfies` below fails the build if a method the node
 * serves has no action here, or an action names the wrong method. Subscriptions are subscription.ts.
 */
import type { MethodArgs, MethodName, MethodReturnType } from './schema.ts';
import type { Transport } from './transport.ts';

/** What an action runs on: a transport, or a client (whose transport answers). */
export type ActionClient = Transport;

export type Action<N extends MethodName> = (client: ActionClient, ...args: MethodArgs<N>) => Promise<MethodReturnType<N>>;

/** Any method by name: `request(client, 'get_block', { height: 1 })`. */
export async function request<N extends MethodName>(client: ActionClient, method: N, ...args: MethodArgs<N>): Promise<MethodReturnType<N>> {
  return (await client.request(method, args[0] as Record<string, unknown> | undefined)) as MethodReturnType<N>;
}

function action<const N extends MethodName>(method: N): Action<N> {
  return (client, ...args) => request(client, method, ...args);
}

export const getNetworkInfo = action('get_network_info');
export const getInfo = action('get_info');
export const getHeight = action('get_height');
export const getBlockHeight = action('get_block_height');
export const getBlock = action('get_block');
export const getLatestBlock = action('get_latest_block');
export const sendTransaction = action('send_transaction');
export const sendRawTransaction = action('send_raw_transaction');
export const getTransaction = action('get_transaction');
export const getTransactionHistory = action('get_transaction_history');
export const getRewardHistory = action('get_reward_history');
export const getTransactionProof = action('get_transaction_proof');
export const getBalance = action('get_balance');
export const getProof = action('get_proof');
export const createAddress = action('create_address');
export const signMessage = action('sign_message');
export const verifyMessage = action('verify_message');
export const getMiningInfo = action('get_mining_info');
export const startMining = action('start_mining');
export const stopMining = action('stop_mining');
export const getMiningStats = action('get_mining_stats');
export const getBlockTemplate = action('get_block_template');
export const submitBlock = action('submit_block');
export const getPeers = action('get_peers');
export const deploySmartContract = action('deploy_smart_contract');
export const callSmartContract = action('call_smart_contract');
export const getContractState = action('get_contract_state');
export const createConfidentialTransaction = action('create_confidential_transaction');
export const generateStealthAddress = action('generate_stealth_address');
export const getMempool = action('get_mempool');
export const getSupply = action('get_supply');
export const getAgentAccount = action('get_agent_account');
export const getEscrow = action('get_escrow');
export const createAgentAccount = action('create_agent_account');
export const addSessionKey = action('add_session_key');
export const revokeSessionKey = action('revoke_session_key');
export const setAgentController = action('set_agent_controller');
export const freezeAgentAccount = action('freeze_agent_account');
export const fundEnergyPool = action('fund_energy_pool');
export const createEscrow = action('create_escrow');
export const claimEscrow = action('claim_escrow');
export const reclaimEscrow = action('reclaim_escrow');
export const disputeEscrow = action('dispute_escrow');
export const resolveEscrow = action('resolve_escrow');

type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;
/** subscribe/unsubscribe are not actions: a subscription is an iterator (subscription.ts). */
type ActionMethod = Exclude<MethodName, 'subscribe' | 'unsubscribe'>;
export type Actions = { readonly [N in ActionMethod as CamelCase<N>]: Action<N> };

/** Every action by its name: the client object binds these (client.ts). */
export const actions = {
  getNetworkInfo, getInfo, getHeight, getBlockHeight, getBlock, getLatestBlock, sendTransaction, sendRawTransaction,
  getTransaction, getTransactionHistory, getRewardHistory, getTransactionProof, getBalance, getProof, createAddress,
  signMessage, verifyMessage, getMiningInfo, startMining, stopMining, getMiningStats, getBlockTemplate, submitBlock,
  getPeers, deploySmartContract, callSmartContract, getContractState, createConfidentialTransaction,
  generateStealthAddress, getMempool, getSupply, getAgentAccount, getEscrow, createAgentAccount, addSessionKey,
  revokeSessionKey, setAgentController, freezeAgentAccount, fundEnergyPool, createEscrow, claimEscrow, reclaimEscrow,
  disputeEscrow, resolveEscrow,
} as const satisfies Actions;
