// Mines one block from the test process (get_block_template → nonce search in Node → submit_block), so explorer
// tests can watch a block arrive live without a CPU miner flooding regtest with blocks.
import { decodeHeader } from '../../src/codec/header.ts';
import { encodeBlock, transactionsRoot } from '../../src/codec/block.ts';
import { blockHash, prePowHash } from '../../src/consensus/pow.ts';
import { searchNonceFast } from '../../src/consensus/pow-fast.ts';
import { fromHex, toHash0x, toHex } from '../../src/util/bytes.ts';
import { nodeRpc } from './node-rpc.ts';

type Template = { header: string; pre_pow_hash: string; target: string; transactions: string[] };

/**
 * Regtest's DAA raises the difficulty while this process mines back to back, until a block takes about a second of
 * one thread; a fixed 2^20-nonce budget then failed now and then (a CI run saw it). 2^26 nonces is minutes of
 * hashing, far past any difficulty a test reaches, so running out means something is wrong.
 */
async function submitSolved(url: string, apiKey: string, t: Template): Promise<string> {
  const found = searchNonceFast(fromHex(t.pre_pow_hash.slice(2)), BigInt(t.target), 0n, 1 << 26);
  if (found.nonce === null) throw new Error(`no nonce in 2^26 tries for target ${t.target}`);
  const header = { ...decodeHeader(fromHex(t.header.slice(2))), nonce: found.nonce };
  await nodeRpc(url, 'submit_block', { block: `0x${toHex(encodeBlock({ header, transactions: t.transactions.map((x) => fromHex(x.slice(2))) }))}` }, apiKey);
  return toHash0x(blockHash(header));
}

export async function mineOneBlock(url: string, apiKey: string, minerAddress: string): Promise<string> {
  return submitSolved(url, apiKey, await nodeRpc<Template>(url, 'get_block_template', { miner_address: minerAddress }, apiKey));
}

/** Two sibling blocks on the same tips (templates taken before either is submitted), for a fork the next block merges. */
export async function mineSiblings(url: string, apiKey: string, minerAddresses: readonly [string, string]): Promise<[string, string]> {
  const templates = await Promise.all(minerAddresses.map((a) => nodeRpc<Template>(url, 'get_block_template', { miner_address: a }, apiKey)));
  const hashes: string[] = [];
  for (const t of templates) hashes.push(await submitSolved(url, apiKey, t));
  return hashes as [string, string];
}

/**
 * Mines one block that also carries `extra` transactions the node's pool would refuse (signed, but e.g. not
 * payable): a block may carry a transaction its merging block then refuses, and the header commits only the tx root.
 */
export async function mineBlockCarrying(url: string, apiKey: string, minerAddress: string, extra: readonly Uint8Array[]): Promise<string> {
  const t = await nodeRpc<Template>(url, 'get_block_template', { miner_address: minerAddress }, apiKey);
  const transactions = [...t.transactions.map((x) => fromHex(x.slice(2))), ...extra];
  const header = { ...decodeHeader(fromHex(t.header.slice(2))), txRoot: transactionsRoot({ transactions }) };
  const found = searchNonceFast(prePowHash(header), BigInt(t.target), 0n, 1 << 26);
  if (found.nonce === null) throw new Error(`no nonce in 2^26 tries for target ${t.target}`);
  const solved = { ...header, nonce: found.nonce };
  await nodeRpc(url, 'submit_block', { block: `0x${toHex(encodeBlock({ header: solved, transactions }))}` }, apiKey);
  return toHash0x(blockHash(solved));
}
