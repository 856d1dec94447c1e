// Metrics that show the block pipeline (issue 29): a mining node's /metrics carries per-stage block processing
// histograms, template build times, the block verify pool's queue and the verification cache's figures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRpcTestNode, type RpcTestNode } from '../../../helpers/rpc-node.ts';

let t: RpcTestNode;
beforeAll(async () => {
  t = await startRpcTestNode(['--mine', '--threads', '1']);
});
afterAll(async () => {
  await t?.close();
});

const count = (text: string, name: string, labels = ''): number => Number(new RegExp(`^${name}${labels.replace(/[{}]/g, '\\$&')} (\\d+)`, 'm').exec(text)?.[1] ?? -1);

describe('block pipeline metrics', () => {
  it('time every stage of the blocks the node accepts and every template it builds', async () => {
    const deadline = Date.now() + 60_000;
    let text = '';
    while (Date.now() < deadline) {
      text = (await t.get('/metrics')).text;
      if (count(text, 'weft_block_stage_seconds_count', '{stage="total"}') >= 3) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const blocks = count(text, 'weft_block_stage_seconds_count', '{stage="total"}');
    expect(blocks).toBeGreaterThanOrEqual(3);
    for (const stage of ['preverify', 'body', 'header', 'acceptance', 'commit']) {
      expect(count(text, 'weft_block_stage_seconds_count', `{stage="${stage}"}`), stage).toBe(blocks);
    }
    expect(count(text, 'weft_template_build_seconds_count')).toBeGreaterThanOrEqual(blocks);
    expect(text).toMatch(/^weft_verify_queue_items 0$/m);
    expect(text).toMatch(/^weft_verify_chunks_in_flight \d+$/m);
    expect(text).toMatch(/^weft_sig_cache_entries \d+$/m);
    expect(text).toMatch(/^weft_sig_cache_hit_ratio [\d.]+$/m);
    expect(text).toMatch(/^weft_mempool_size \d+$/m);
    // Sent P2P messages by type (none here: no peers), listed so a scrape config can name them from the start.
    expect(text).toMatch(/^# TYPE weft_p2p_sent_bytes gauge$/m);
    expect(text).toMatch(/^# TYPE weft_p2p_sent_messages gauge$/m);
  });
});
