/**
 * The ports the RPC handlers read and drive. The node (server/node/start-node.ts) wires real implementations; a port
 * left out makes its methods answer -32603 naming the service (ServiceUnavailableError), never invented data.
 * Amounts are bigint base units and hashes/addresses raw bytes here; handlers convert at the JSON edge.
 */
import type { ContractReceipt } from '../kinds/contract-receipt.ts';
import type { Block } from '../codec/block.ts';
import type { AnyTransaction, Transaction } from '../kinds/transaction-codec.ts';
import type { AddBlockResult, BlockAcceptedEvent } from '../chain/chain.ts';
import type { IndexedBlock } from '../chain/block-index.ts';
import type { PrunerStatus } from '../chain/pruner.ts';
import type { BlockId, GhostdagEngine } from '../consensus/ghostdag.ts';
import type { NetworkParams } from '../consensus/params.ts';
import type { BlockTemplate } from '../mining/template.ts';
import type { MiningControl } from '../mining/control.ts';
import type { Account } from '../state/account.ts';
import type { StateNamespaceName } from '../state/namespaces.ts';
import type { ContractCallTransaction, UnsignedContractCall } from '../kinds/contract-call.ts';
import type { ContractDeployTransaction, UnsignedContractDeploy } from '../kinds/contract-deploy.ts';
import type { AgentTransaction, UnsignedAgentTransaction } from '../kinds/agent/envelope.ts';
import type { RecordNamespace } from '../kinds/kind.ts';
import type { StateProof } from '../state/proof.ts';
import type { Clock } from '../util/clock.ts';
import type { ReadCacheStats } from '../storage/read-cache.ts';

/** What the handlers need of the chain (src/chain/chain.ts `Chain` satisfies it). */
export interface ChainView {
  readonly params: NetworkParams;
  readonly engine: Pick<GhostdagEngine, 'computeBlock' | 'virtualParents'>;
  addBlock(block: Block): Promise<AddBlockResult>;
  get(id: BlockId): IndexedBlock | undefined;
  getBlock(id: BlockId): Block | undefined;
  selectedTip(): IndexedBlock;
  tips(): IndexedBlock[];
  blockAtHeight(height: number): IndexedBlock | undefined;
  blockCount(): number;
  orphanCount(): number;
  onBlockAccepted(listener: (event: BlockAcceptedEvent) => void): () => void;
  /** The chain's per-block caches (the full node's, for /metrics); absent on chains without any. */
  cacheStats?(): readonly ReadCacheStats[];
  /** The pruning point and the pruner's progress; undefined on an archive node (docs/storage.md "Pruning"). */
  pruning?(): PrunerStatus | undefined;
  /** Whether a block is below the pruning point: its body, transactions and state are gone (false on an archive). */
  isPruned?(id: BlockId): boolean;
}

/** docs/design.md "Consensus" transaction states, as the APIs show them. */
export type TransactionStatus = 'pending' | 'confirmed' | 'final' | 'dropped';

export interface TransactionRecord {
  readonly hash: Uint8Array;
  readonly tx: AnyTransaction;
  readonly status: TransactionStatus;
  /** The block that carries the transaction (absent while pending). */
  readonly blockHash?: Uint8Array;
  /** The chain block whose mergeset accepted it; its blue score gives `confirmations` (docs/design.md "Consensus"). */
  readonly acceptingBlockHash?: Uint8Array;
  /** Block timestamp once in a block, else when the mempool admitted it (ms). */
  readonly timestampMs: number;
  /** Fee units paid from energy (docs/design.md "State, accounts and energy"); 0 when the balance paid. */
  readonly energyUsed: bigint;
  /** An accepted contract transaction's receipt (node-local: src/kinds/contract-receipt.ts). */
  readonly receipt?: ContractReceipt;
}

/** A block reward an address received (src/state/tx-index.ts `RewardEntry`, as the port's bytes). */
interface RewardRecord {
  readonly blockHash: Uint8Array;
  readonly blockHeight: number;
  readonly blue: boolean;
  readonly subsidyUnits: bigint;
  readonly feesUnits: bigint;
  readonly timestampMs: number;
  /** Null while only the virtual has accepted it (credited in the balance, no chain block yet). */
  readonly acceptingBlockHash: Uint8Array | null;
  readonly acceptingHeight: number | null;
  readonly confirmations: number;
}

interface HistoryPage {
  /** How many records the address has in all (for paging); undefined when the index cannot count cheaply. */
  readonly total?: number;
  /** Newest first. */
  readonly items: readonly TransactionRecord[];
}

interface AccountProof {
  /** The state root the proof is against and the chain block whose header commits to it. */
  readonly stateRoot: Uint8Array;
  readonly blockHash: Uint8Array;
  readonly key: Uint8Array;
  readonly proof: StateProof;
}

/** The ledger: account state at the virtual, the transaction index, proofs and supply. */
export interface LedgerView {
  account(address: Uint8Array): Account;
  getTransaction(hash: Uint8Array): TransactionRecord | undefined;
  history(address: Uint8Array, page: { readonly limit: number; readonly offset: number }): HistoryPage;
  /** The block rewards an address received, newest first (get_reward_history); left out: -32603 naming the ledger. */
  rewards?(address: Uint8Array, page: { readonly limit: number; readonly offset: number }): { readonly total: number; readonly items: readonly RewardRecord[] };
  proof(address: Uint8Array): AccountProof;
  /**
   * A proof of record `id` of any state namespace (src/state/namespaces.ts) against the same header as `proof`;
   * get_proof's `namespace` param. Left out: namespaces other than accounts answer -32603 naming the ledger.
   */
  proveRecord?(namespace: StateNamespaceName, id: Uint8Array): AccountProof & { readonly exists: boolean };
  /** A contract record's stored value at the virtual state (src/vm/contract-state.ts); left out: contracts answer -40007. */
  contractRecord?(namespace: RecordNamespace, id: Uint8Array): Uint8Array | undefined;
  /** Any record's stored value at the virtual state (the wallet methods' pre-check of agent and escrow transactions). */
  stateRecord?(namespace: RecordNamespace, id: Uint8Array): Uint8Array | undefined;
  /**
   * The cap (`totalUnits`), the units emitted so far (`circulatingUnits`) and, where the ledger counts them, the units
   * destroyed (`burntUnits`); all ≤ the supply cap.
   */
  supply(): {
    readonly totalUnits: bigint;
    readonly circulatingUnits: bigint;
    /** Left out by ledgers that do not count them (get_supply answers null). */
    readonly burntUnits?: bigint;
    readonly feesTotalUnits?: bigint;
  };
  /** Chain-wide counters for the explorer; activeAddresses may be left out (the stats window's count is used). */
  counters(): { readonly totalTransactions: number; readonly activeAddresses?: number };
  /**
   * Fires after transactions were accepted by a chain block (confirmed_transactions, address_transactions). The records
   * come on demand (`read`): under load a chain block accepts thousands, and nobody may be listening.
   */
  onAccepted(listener: (read: () => readonly TransactionRecord[]) => void): () => void;
}

interface SubmitResult {
  readonly hash: Uint8Array;
  readonly status: TransactionStatus;
}

/** The mempool: admission (throws -40001/-40003 with the reason), what is pending, and admission events. */
export interface MempoolPort {
  /** `mixnetHops`: the Dandelion++ stem this transaction takes before it is announced (node default otherwise). */
  submit(tx: AnyTransaction, options?: { readonly mixnetHops?: number }): Promise<SubmitResult>;
  get(hash: Uint8Array): TransactionRecord | undefined;
  /** Pending transactions touching `address` (from or to); every pending transaction when absent. */
  pending(address?: Uint8Array): readonly TransactionRecord[];
  size(): number;
  onAdmitted(listener: (record: TransactionRecord) => void): () => void;
}

type AddressKind = 'standard' | 'stealth' | 'multisig';
type SignatureType = 'ecdsa' | 'schnorr' | 'ring';

interface CreatedAddress {
  readonly address: Uint8Array;
  readonly publicKey?: Uint8Array;
  readonly walletName: string;
  readonly addressType: AddressKind;
  readonly privacyLevel: string;
}

interface MessageSignature {
  readonly signature: Uint8Array;
  readonly publicKey: Uint8Array;
}

/** The node's wallet: keys it holds, message signatures, and signed transfers from its addresses. */
export interface WalletPort {
  createAddress(request: { walletName: string; addressType: AddressKind; privacyLevel: string }): Promise<CreatedAddress>;
  signMessage(request: { address: Uint8Array; message: string; signatureType: SignatureType }): Promise<MessageSignature>;
  verifyMessage(request: { address: Uint8Array; message: string; signature: Uint8Array; signatureType: SignatureType }): boolean;
  /** A signed transfer from one of the wallet's addresses with the sender's next nonce. */
  buildTransfer(request: { from: Uint8Array; to: Uint8Array; amount: bigint; fee: bigint; useEnergy: boolean }): Promise<Transaction>;
  /** A signed contract deploy or call from one of the wallet's standard addresses with the sender's next nonce. */
  signContractTransaction?(request: ContractTransactionRequest): Promise<ContractDeployTransaction | ContractCallTransaction>;
  /**
   * A signed agent or escrow transaction (docs/settlement.md) paid by `payer` with its next nonce, signed by the
   * wallet's key for `signer` (the payer's own key, the agent's controller or one of its session keys).
   */
  signAgentTransaction?(request: Omit<UnsignedAgentTransaction, 'chainId' | 'nonce'>): Promise<AgentTransaction>;
}

/** A contract transaction for the wallet to complete (chain id, nonce) and sign. */
type ContractTransactionRequest =
  | Omit<UnsignedContractDeploy, 'chainId' | 'nonce'>
  | Omit<UnsignedContractCall, 'chainId' | 'nonce'>;

/** One input or output of create_confidential_transaction, parsed (docs/api.md "Privacy"). */
export type ConfidentialEndpoint =
  | { readonly kind: 'transparent'; readonly address: Uint8Array; readonly amount: bigint }
  | { readonly kind: 'stealth'; readonly address: string; readonly amount: bigint };

export interface ConfidentialRequest {
  readonly inputs: readonly ConfidentialEndpoint[];
  readonly outputs: readonly ConfidentialEndpoint[];
  readonly ringSize?: number;
  readonly fee: bigint;
}

/** An owned confidential output as get_balance shows it (owner: amount and mask opened; encrypted: as stored). */
interface OwnedConfidentialOutput {
  readonly oneTimeKey: Uint8Array;
  readonly commitment: Uint8Array;
  readonly amountKind: 'hidden' | 'public';
  /** The stored amount field: 8 encrypted bytes, or the public LE64. */
  readonly storedAmount: Uint8Array;
  readonly amount: bigint;
  readonly mature: boolean;
  readonly txHash: Uint8Array;
}

/** The node wallet's stealth accounts and confidential transactions (server/wallet/privacy-port.ts). */
export interface PrivacyPort {
  /** A new stealth account in the named wallet (created if absent), like create_address. */
  createStealthAccount(walletName: string): { readonly text: string; readonly spendPublic: Uint8Array; readonly viewPublic: Uint8Array; readonly path: string };
  /** Unspent outputs of one of the node's stealth accounts; undefined when the address is none of the node's. */
  ownedOutputs(stealthAddress: string): readonly OwnedConfidentialOutput[] | undefined;
  /** Builds and signs a shield, confidential transfer or unshield from the node's keys (not yet submitted). */
  buildConfidential(request: ConfidentialRequest): AnyTransaction;
  /** A linkable ring signature by one of the node's stealth accounts (src/wallet/ring-message.ts). */
  signRingMessage(stealthAddress: string, message: string): Uint8Array;
  /** Fresh randomness for generate_stealth_address. */
  randomBytes(length: number): Uint8Array;
}

/** A peer as get_peer_info and /health show it (the p2p layer's own view is PeerInfo of src/p2p/p2p-node.ts). */
export interface RpcPeerInfo {
  readonly id: string;
  readonly address: string;
  readonly direction: 'inbound' | 'outbound';
  readonly transport: 'tcp' | 'websocket';
  readonly connectedAtMs: number;
  readonly height: number;
  readonly banScore: number;
}

interface PeerView {
  peers(): readonly RpcPeerInfo[];
  /** Messages and payload bytes sent to peers since start, by message type (/metrics). */
  sentByMessage?(): ReadonlyMap<string, { readonly messages: number; readonly bytes: number }>;
}

/** Builds a template for get_block_template; the node decides its transactions and state root. */
interface TemplatePort {
  build(request: { miner: Uint8Array; gpuMining: boolean }): BlockTemplate;
}

/** Facts about this node process. */
interface NodeInfo {
  readonly version: string;
  readonly startedAtMs: number;
  readonly clock: Clock;
  /** Headers-first sync finished (a node with no peers counts as synced). */
  synced(): boolean;
}

/** Everything a handler may use; optional ports are the services a node may not run. */
export interface RpcServices {
  readonly chain: ChainView;
  readonly node: NodeInfo;
  readonly ledger?: LedgerView;
  readonly mempool?: MempoolPort;
  readonly wallet?: WalletPort;
  readonly privacy?: PrivacyPort;
  readonly mining?: MiningControl;
  readonly peers?: PeerView;
  readonly templates?: TemplatePort;
}
