import { z } from 'zod';
import { encodeHeader } from '../../codec/header.ts';
import { toHash0x, toHex } from '../../util/bytes.ts';
import { defineMethod, need } from '../method.ts';
import { hashResult } from '../result-schemas.ts';
import { addressSchema, parseAddress } from '../schemas.ts';
import { difficultyFromTarget } from '../../consensus/pow.ts';

/**
 * A header to grind on (Bitcoin's getblocktemplate, Kaspa's GetBlockTemplate): the encoded header with nonce 0 (the
 * nonce is its last 8 bytes, little-endian), its pre-PoW hash and target, and the transactions. A miner sets the
 * nonce in `header` and sends header + transactions back with submit_block. Public (docs/auth.md "Public work"): a
 * visitor's tab mines to its own address; a template costs one virtual-state preview and is rate-limited per client.
 */
export const getBlockTemplate = defineMethod({
  name: 'get_block_template',
  summary: 'A block template paying miner_address: header bytes (nonce 0), pre-PoW hash, target and transactions.',
  params: z.strictObject({ miner_address: addressSchema, gpu_mining: z.boolean().default(false) }),
  scope: 'public',
  result: z.object({
    header: z.string().describe('encoded header, 0x-hex, nonce 0'),
    pre_pow_hash: hashResult,
    target: z.string().describe('0x-hex, 32 bytes'),
    bits: z.int(),
    difficulty: z.int(),
    height: z.int(),
    blue_score: z.int(),
    daa_score: z.int(),
    timestamp_ms: z.int(),
    parent_hashes: z.array(hashResult),
    version: z.int().describe('header version: the network\'s (docs/pruning-proof.md "Header version 2")'),
    level_parents: z
      .array(z.object({ levels: z.int(), parent_hashes: z.array(hashResult) }))
      .optional()
      .describe('version 2: the parents at levels 1..255 as runs, each giving its parents to its next `levels` levels'),
    pruning_point: hashResult.optional().describe('version 2: the pruning point the block commits to'),
    transactions: z.array(z.string()).describe('0x-hex each'),
  }),
  run(params, ctx) {
    const templates = need(ctx, 'templates', 'get_block_template');
    const miner = parseAddress(ctx, params.miner_address);
    const t = templates.build({ miner, gpuMining: params.gpu_mining });
    const { chain } = ctx.services;
    return {
      header: `0x${toHex(encodeHeader(t.header))}`,
      pre_pow_hash: toHash0x(t.prePowHash),
      target: `0x${t.target.toString(16).padStart(64, '0')}`,
      bits: t.header.bits,
      difficulty: difficultyFromTarget(t.target, chain.params.maxTarget),
      height: chain.selectedTip().height + 1,
      blue_score: t.header.blueScore,
      daa_score: t.header.daaScore,
      timestamp_ms: t.header.timestampMs,
      parent_hashes: t.header.parents.map(toHash0x),
      version: t.header.version,
      ...(t.header.levelParents === undefined ? {} : { level_parents: t.header.levelParents.map((run) => ({ levels: run.levels, parent_hashes: run.parents.map(toHash0x) })) }),
      ...(t.header.pruningPoint === undefined ? {} : { pruning_point: toHash0x(t.header.pruningPoint) }),
      transactions: t.transactions.map((tx) => `0x${toHex(tx)}`),
    };
  },
});
