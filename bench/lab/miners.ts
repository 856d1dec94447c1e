/**
 * Mining for the network lab: blocks at Poisson times averaging one a second (the network's target), each found by
 * a miner chosen by its share of the hash rate. Regtest's difficulty sits at the pow limit, so grinding a nonce costs
 * a couple of hashes: the schedule, not the box's cores, sets the block rate, and the lab's CPU goes to the nodes.
 * Each miner keeps a template refreshed every `templateRefreshMs` as a real miner polls for work, so a found block
 * carries a template of realistic age (0 … refresh ms old), not one built the instant before submission.
 */
import { decodeHeader } from '../../src/codec/header.ts';
import { encodeBlock } from '../../src/codec/block.ts';
import { searchNonce } from '../../src/consensus/pow.ts';
import { regtestParams } from '../../src/consensus/params.ts';
import { encodeAddress, standardAddress } from '../../src/crypto/address.ts';
import { publicKeyFromPrivate } from '../../src/crypto/keys.ts';
import { fromHex, toHex } from '../../src/util/bytes.ts';
import type { LabNode } from './lab-node.ts';

export interface MinerShare {
  readonly node: number;
  readonly share: number;
}

export interface MinedBlock {
  readonly hash: string;
  readonly miner: number;
  readonly submittedAtMs: number;
  /** How old the template was when the block was found. */
  readonly templateAgeMs: number;
}

interface Template {
  readonly header: string;
  readonly transactions: readonly string[];
  readonly target: string;
  readonly pre_pow_hash: string;
  readonly atMs: number;
}

const strip = (hex: string): string => (hex.startsWith('0x') ? hex.slice(2) : hex);

/** The private key a lab node's miner is paid to (the transaction load's funder spends it). */
export function labMinerKey(node: number): Uint8Array {
  const key = new Uint8Array(32).fill(2);
  key[31] = node + 1;
  return key;
}

/** A miner address of the lab: a fixed private key per node. */
export function labMinerAddress(node: number): string {
  return encodeAddress(regtestParams.hrp, standardAddress(publicKeyFromPrivate(labMinerKey(node))));
}

/** What a miner needs of a node: its JSON-RPC (get_block_template, submit_block). */
export interface MinerNode {
  rpc: LabNode['rpc'];
}

export interface Miners {
  readonly mined: MinedBlock[];
  readonly errors: string[];
  stop(): Promise<void>;
}

export function startMiners(nodes: readonly MinerNode[], shares: readonly MinerShare[], options: { blockIntervalMs: number; templateRefreshMs: number; random: () => number }): Miners {
  const templates = new Map<number, Template>();
  const mined: MinedBlock[] = [];
  const errors: string[] = [];
  // A found block spends its template: a template asked for before the node took the miner's last block is stale
  // (its block would be the same block again, or a sibling carrying the same transactions), and a block due while the
  // node has no fresh template is found as soon as one comes, as a real miner resumes on the work its node pushes
  // after a find.
  const finds = new Map<number, number>();
  const owed = new Set<number>();
  let stopped = false;
  const refresh = async (node: number): Promise<void> => {
    const generation = finds.get(node) ?? 0;
    try {
      const t = await nodes[node]!.rpc('get_block_template', { miner_address: labMinerAddress(node) });
      if ((finds.get(node) ?? 0) !== generation) return;
      templates.set(node, { ...t, atMs: Date.now() });
      if (owed.delete(node)) void mineOn(node);
    } catch (error) {
      if (!stopped) errors.push(String(error));
    }
  };
  const refreshers = shares.map(({ node }) => {
    void refresh(node);
    return setInterval(() => void refresh(node), options.templateRefreshMs);
  });
  const total = shares.reduce((sum, s) => sum + s.share, 0);
  const pick = (): number => {
    let x = options.random() * total;
    for (const s of shares) if ((x -= s.share) < 0) return s.node;
    return shares.at(-1)!.node;
  };
  const mineOn = async (node: number): Promise<void> => {
    const t = templates.get(node);
    if (t === undefined) return void owed.add(node);
    templates.delete(node);
    finds.set(node, (finds.get(node) ?? 0) + 1);
    const found = searchNonce(fromHex(strip(t.pre_pow_hash)), BigInt(t.target), 0n, 1_000_000);
    if (found.nonce === null) return void errors.push('no nonce in range');
    const header = { ...decodeHeader(fromHex(strip(t.header))), nonce: found.nonce };
    const block = encodeBlock({ header, transactions: t.transactions.map((tx) => fromHex(strip(tx))) });
    const submittedAtMs = Date.now();
    try {
      const result = await nodes[node]!.rpc('submit_block', { block: `0x${toHex(block)}` });
      // Templates asked for while the node took the block did not build on it; the next one does.
      finds.set(node, finds.get(node)! + 1);
      templates.delete(node);
      void refresh(node);
      if (result.status !== 'accepted') return void errors.push(`submit_block answered ${result.status} for its own template`);
      mined.push({ hash: String(result.hash), miner: node, submittedAtMs, templateAgeMs: submittedAtMs - t.atMs });
    } catch (error) {
      if (!stopped) errors.push(String(error));
    }
  };
  let timer: NodeJS.Timeout | undefined;
  const schedule = (): void => {
    // Exponential gaps: a Poisson process of one block per blockIntervalMs on average.
    const gap = -Math.log(1 - options.random()) * options.blockIntervalMs;
    timer = setTimeout(() => {
      if (stopped) return;
      void mineOn(pick());
      schedule();
    }, gap);
  };
  schedule();
  return {
    mined,
    errors,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      for (const r of refreshers) clearInterval(r);
    },
  };
}
