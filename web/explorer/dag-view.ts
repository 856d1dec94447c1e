/**
 * The DAG view: the most recent blocks laid out by blue score (x) with an edge to each parent. Blue and red come
 * from the tab's own GHOSTDAG (the light node's engine): a block is red when a verified chain block's mergeset
 * coloured it red; blocks the light node has not verified yet are drawn grey.
 */
import type { LightChain } from '../../src/light/light-chain.ts';

export interface DagBlock {
  readonly hash: string;
  readonly blueScore: number;
  readonly parents: readonly string[];
  readonly chain: boolean;
}

const width = 900;
const height = 220;

export function renderDag(svg: SVGSVGElement, blocks: readonly DagBlock[], light: LightChain | undefined): void {
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  if (blocks.length === 0) return;
  const reds = new Set<string>();
  if (light) {
    for (let walk = light.selectedTip(), n = 0; n < 200 && walk.selectedParent; walk = walk.selectedParent, n++) {
      for (const r of light.engine.get(walk.id)?.mergesetReds ?? []) reds.add(r);
    }
  }
  const minScore = Math.min(...blocks.map((b) => b.blueScore));
  const maxScore = Math.max(...blocks.map((b) => b.blueScore));
  const span = Math.max(1, maxScore - minScore);
  const lanes = new Map<number, number>();
  const pos = new Map<string, { x: number; y: number }>();
  for (const b of blocks) {
    const lane = lanes.get(b.blueScore) ?? 0;
    lanes.set(b.blueScore, lane + 1);
    pos.set(b.hash, { x: 20 + ((b.blueScore - minScore) / span) * (width - 40), y: height / 2 + (lane % 2 === 0 ? 1 : -1) * Math.ceil(lane / 2) * 40 });
  }
  const edges: string[] = [];
  const nodes: string[] = [];
  for (const b of blocks) {
    const p = pos.get(b.hash)!;
    for (const parent of b.parents) {
      const q = pos.get(parent);
      if (q) edges.push(`<line x1="${q.x}" y1="${q.y}" x2="${p.x}" y2="${p.y}" stroke="#2a3642" stroke-width="1.5"/>`);
    }
    const id = b.hash.slice(2);
    const known = light?.has(id) ?? false;
    const colour = !known ? '#8b98a5' : reds.has(id) ? '#ff6b6b' : '#4ea1ff';
    const kind = !known ? 'unverified' : reds.has(id) ? 'red' : 'blue';
    nodes.push(`<a href="#/block/${b.hash}" aria-label="block ${b.hash} (${kind}${b.chain ? ', chain' : ''})"><circle cx="${p.x}" cy="${p.y}" r="${b.chain ? 8 : 6}" fill="${colour}" data-kind="${kind}"><title>${b.hash} (${kind}${b.chain ? ', chain' : ''})</title></circle></a>`);
  }
  svg.innerHTML = edges.join('') + nodes.join('');
}
