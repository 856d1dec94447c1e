/**
 * Network parameters and genesis blocks (docs/design.md "Networks and units" and "Consensus", docs/consensus.md "Networks"). GHOSTDAG's k, the parent
 * and mergeset limits are Kaspa's values at one block a second (notes/ghostdag-kaspa.md); the DAA window and the
 * starting difficulties are Weft's own.
 */
import { emptyMerkleRoot } from '../codec/merkle.ts';
import { headerVersionGenesis, type BlockHeader } from '../codec/header.ts';
import { neverActivates, type Activations } from './activation.ts';
import { WeftError } from '../errors.ts';
import { headerParentsMax } from '../limits.ts';
import { blockHash } from './pow.ts';

export type NetworkName = 'mainnet' | 'testnet' | 'devnet' | 'regtest';
export const networkNames: readonly NetworkName[] = ['mainnet', 'testnet', 'devnet', 'regtest'];

interface NetworkPorts {
  /** HTTP: JSON-RPC, REST, A2A, explorer (docs/design.md "Node APIs and access"). */
  readonly rpc: number;
  readonly ws: number;
  readonly grpc: number;
  readonly p2p: number;
  readonly https: number;
}

export interface NetworkParams {
  readonly name: NetworkName;
  readonly chainId: number;
  /** bech32m human-readable part of addresses. */
  readonly hrp: string;
  readonly ghostdagK: number;
  readonly maxParents: number;
  /** Mergeset size limit, selected parent included. */
  readonly mergesetSizeLimit: number;
  readonly targetBlockTimeMs: number;
  /** Selected-chain blocks in the DAA window (src/consensus/difficulty.ts). */
  readonly daaWindowBlocks: number;
  /** The most the target may move in one block, either way. */
  readonly daaStepFactorMax: number;
  /** The pow limit: no target may exceed it; difficulty = maxTarget / target. */
  readonly maxTarget: bigint;
  readonly genesis: Readonly<BlockHeader>;
  readonly ports: NetworkPorts;
  /** A header's timestamp may be at most this far ahead of the node's clock. */
  readonly timestampFutureBoundMs: number;
  /** Chain blocks whose median timestamp a new block's timestamp must exceed. */
  readonly pastMedianTimeWindow: number;
  /**
   * Blue-score depth after which a block (and its transactions) is final: the virtual selected chain never leaves
   * the chain block this far below the selected tip (src/chain/depth-rules.ts, docs/consensus.md "Finality and merge
   * depth").
   */
  readonly finalityDepth: number;
  /**
   * Bounded merge depth: a block may not merge a red block outside the future of its chain block this far below it,
   * unless a blue it merges covers it. Below finalityDepth, so nothing past the finality point is ever merged.
   */
  readonly mergeDepth: number;
  /**
   * Blue-score depth of the pruning point below the selected tip (src/chain/pruning-point.ts, docs/storage.md
   * "Pruning"): bodies, transaction-index rows and state below it are deleted unless the node is an archive.
   * Consensus where headers are version 2 (they commit to the pruning point), node policy on a version 1 regtest. It
   * must exceed finalityDepth, so every state a reorganisation can return to and every block a new block can merge
   * stays whole.
   */
  readonly pruningDepth: number;
  /**
   * The header version of every non-genesis block (docs/pruning-proof.md "Header version 2"); genesis is version 1
   * everywhere, so no genesis hash changes. Version 2 commits to level parents and the pruning point, which
   * pruning-point proofs need; regtest stays at 1 so every existing fixture and pinned hash holds, unless a node is
   * started with `--regtest-header-version=2`. With version 2 the pruning point (and so pruningDepth) is consensus.
   */
  readonly headerVersion: 1 | 2;
  /**
   * M of the pruning-point proof (docs/pruning-proof.md "The proof"): each level goes back until its selected tip's
   * blue score is ≥ 2M, and levels interlock M deep. Kaspa's 1,000 where a forger faces real hash power (a proof of
   * ~2,000 headers a level, a few tens of MB at worst); devnet 100 so a local chain gets full levels in minutes;
   * regtest 20 so tests build multi-level proofs from a few hundred blocks.
   */
  readonly pruningProofM: number;
  /** DAA scores at which later consensus rule sets activate (src/consensus/activation.ts, docs/consensus.md "Activations"). */
  readonly activations: Activations;
}

/**
 * Kaspa's pruning depth formula (rusty-kaspa consensus/core/config/params.rs): two finality depths, plus room for
 * the blocks a mergeset can pull from below a finality boundary (4·mergesetSizeLimit·k), plus 2k + 2.
 */
function kaspaPruningDepth(finalityDepth: number, mergesetSizeLimit: number, k: number): number {
  return 2 * finalityDepth + 4 * mergesetSizeLimit * k + 2 * k + 2;
}

export class UnknownNetworkError extends WeftError {
  constructor(name: string) {
    super('invalid_params', `unknown network "${name}", expected one of ${networkNames.join(', ')}`);
  }
}

/** Kaspa's (and Bitcoin-style) easiest target, 2^255 − 1: difficulty ≈ expected hashes per block / 2. */
export const maxTargetDefault = (1n << 255n) - 1n;

/** State root of every genesis until the state trie lands: 32 zero bytes (the lead replaces it, then re-grinds). */
const genesisStateRootPlaceholder: Uint8Array = new Uint8Array(32);

const defaultPorts: NetworkPorts = Object.freeze({ rpc: 8080, ws: 8081, grpc: 8082, p2p: 2080, https: 8443 });

function genesisHeader(timestampMs: number, bits: number, nonce: bigint): BlockHeader {
  return Object.freeze({
    version: headerVersionGenesis,
    parents: Object.freeze([]) as readonly Uint8Array[],
    txRoot: emptyMerkleRoot.slice(),
    stateRoot: genesisStateRootPlaceholder.slice(),
    timestampMs,
    bits,
    daaScore: 0,
    blueScore: 0,
    blueWork: 0n,
    miner: new Uint8Array(33),
    gpuMining: false,
    nonce,
  });
}

/** Shared by every network: Kaspa's 1-BPS GHOSTDAG figures and Weft's timing rules. */
const common = {
  ghostdagK: 18,
  maxParents: headerParentsMax,
  mergesetSizeLimit: 180,
  targetBlockTimeMs: 1000,
  daaStepFactorMax: 4,
  maxTarget: maxTargetDefault,
  ports: defaultPorts,
  timestampFutureBoundMs: 120_000,
  pastMedianTimeWindow: 11,
} as const;

/**
 * Genesis difficulties (expected hashes = 2^256 / (target + 1)): mainnet 2^22, testnet 2^20, devnet 2^17 — about
 * one second of one JS thread on noble BLAKE3 (~0.14 M hashes/s). The DAA moves up to ×4 a block from there.
 * Nonces were ground with searchNonce (docs/consensus.md says how to redo it when the genesis changes).
 */
export const mainnetParams: NetworkParams = Object.freeze({
  ...common,
  name: 'mainnet',
  headerVersion: 2,
  pruningProofM: 1_000,
  chainId: 1,
  hrp: 'weft',
  daaWindowBlocks: 2641,
  finalityDepth: 43_200,
  mergeDepth: 3_600,
  pruningDepth: kaspaPruningDepth(43_200, common.mergesetSizeLimit, common.ghostdagK),
  genesis: genesisHeader(1_767_225_600_000, 0x1e040000, 341_477n),
  // One year of blocks after genesis (2027-01-01 at one block a second): announced ahead, as any hard fork is.
  activations: Object.freeze({ rulesV2: 31_536_000, rulesV3: 31_536_000, rulesV4: 31_536_000 }),
});

export const testnetParams: NetworkParams = Object.freeze({
  ...common,
  name: 'testnet',
  headerVersion: 2,
  pruningProofM: 1_000,
  chainId: 2,
  hrp: 'tweft',
  daaWindowBlocks: 2641,
  finalityDepth: 43_200,
  mergeDepth: 3_600,
  pruningDepth: kaspaPruningDepth(43_200, common.mergesetSizeLimit, common.ghostdagK),
  genesis: genesisHeader(1_767_312_000_000, 0x1e100000, 1_386_759n),
  activations: Object.freeze({ rulesV2: 0, rulesV3: 0, rulesV4: 0 }),
});

export const devnetParams: NetworkParams = Object.freeze({
  ...common,
  name: 'devnet',
  headerVersion: 2,
  pruningProofM: 100,
  chainId: 1337,
  hrp: 'dweft',
  daaWindowBlocks: 120,
  finalityDepth: 100,
  mergeDepth: 50,
  pruningDepth: kaspaPruningDepth(100, common.mergesetSizeLimit, common.ghostdagK),
  genesis: genesisHeader(1_767_398_400_000, 0x1f008000, 124_955n),
  activations: Object.freeze({ rulesV2: 0, rulesV3: 0, rulesV4: 0 }),
});

/**
 * Regression-test network (Bitcoin Core's regtest idea): genesis at the pow limit, so fixtures of tens of thousands
 * of blocks cost validation time only. Never the default of any command; tests and benchmarks name it.
 */
export const regtestParams: NetworkParams = Object.freeze({
  ...common,
  name: 'regtest',
  headerVersion: 1,
  pruningProofM: 20,
  chainId: 1338,
  hrp: 'rweft',
  daaWindowBlocks: 120,
  finalityDepth: 100,
  mergeDepth: 50,
  pruningDepth: kaspaPruningDepth(100, common.mergesetSizeLimit, common.ghostdagK),
  genesis: genesisHeader(1_767_484_800_000, 0x207fffff, 0n),
  // Pinned fixtures (test/unit/consensus/consensus-fixture.test.ts) keep version 1 rules; `--regtest-rules-v2-at`,
  // `--regtest-rules-v3-at` and `--regtest-rules-v4-at` opt in.
  activations: Object.freeze({ rulesV2: neverActivates, rulesV3: neverActivates, rulesV4: neverActivates }),
});

const byName: Readonly<Record<NetworkName, NetworkParams>> = {
  mainnet: mainnetParams,
  testnet: testnetParams,
  devnet: devnetParams,
  regtest: regtestParams,
};

function isNetworkName(name: string): name is NetworkName {
  return (networkNames as readonly string[]).includes(name);
}

export function getNetworkParams(name: string): NetworkParams {
  if (!isNetworkName(name)) throw new UnknownNetworkError(name);
  return byName[name];
}

const genesisHashes = new WeakMap<NetworkParams, Uint8Array>();

/** The genesis block's hash, computed once per params object. */
export function genesisHash(params: NetworkParams): Uint8Array {
  let hash = genesisHashes.get(params);
  if (hash === undefined) {
    hash = blockHash(params.genesis);
    genesisHashes.set(params, hash);
  }
  return hash.slice();
}
