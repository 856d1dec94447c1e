/**
 * The DAG view: the recent window of the block DAG — chain blocks and the side blocks they merge — laid out by blue
 * score (x), siblings of one blue score stacked (y). Each block has an edge to each parent in the window: the
 * selected parent's edge bold, the other parents' (merge) edges dashed. Blue and red come from the tab's own GHOSTDAG
 * (the light node's engine): a block is red when a verified chain block's mergeset coloured it red, blue when it was
 * merged blue (or is on the chain); blocks the light node has not verified yet are grey. The selected tip's merge set
 * is ringed. It used to draw selected-chain blocks only (issue 21), which hid what makes the chain a DAG.
 */
import type { LightChainView } from '../../src/light/light-chain.ts';
import { formatInteger } from '../lib/format.ts';

export interface DagBlock {
  readonly hash: string;
  readonly blueScore: number;
  readonly parents: readonly string[];
  readonly chain: boolean;
  /** Its height (a side block's is that of its selected-parent chain): chain blocks are labelled with it. */
  readonly height?: number;
}

const width = 900;
const height = 220;
/** Chain blocks walked back from the tip to colour the window: more than the window ever spans. */
const colourWalkBlocksMax = 200;
const laneGapPx = 32;
/** Height labels are drawn at about this many CSS pixels, whatever the view's width (the viewBox scales them). */
const labelFontPx = 11;

interface Colouring {
  readonly reds: ReadonlySet<string>;
  readonly blues: ReadonlySet<string>;
  /** Blocks in the selected tip's merge set (its selected parent excluded). */
  readonly tipMergeset: ReadonlySet<string>;
  readonly mergedBy: ReadonlyMap<string, string>;
  /** The verified selected chain (within the walk). */
  readonly chain: ReadonlySet<string>;
}

function colour(light: LightChainView | undefined): Colouring {
  const reds = new Set<string>();
  const blues = new Set<string>();
  const mergedBy = new Map<string, string>();
  const tipMergeset = new Set<string>();
  const chain = new Set<string>();
  if (!light) return { reds, blues, tipMergeset, mergedBy, chain };
  const tip = light.selectedTip();
  for (let walk = tip, n = 0; n < colourWalkBlocksMax && walk; walk = walk.selectedParent!, n++) {
    blues.add(walk.id);
    chain.add(walk.id);
    const data = light.mergeset(walk.id);
    for (const r of data?.mergesetReds ?? []) (reds.add(r), mergedBy.set(r, walk.id));
    for (const b of data?.mergesetBlues ?? []) (blues.add(b), mergedBy.has(b) || mergedBy.set(b, walk.id));
    if (walk === tip) for (const m of [...(data?.mergesetBlues ?? []), ...(data?.mergesetReds ?? [])]) if (m !== data?.selectedParent) tipMergeset.add(m);
    if (!walk.selectedParent) break;
  }
  return { reds, blues, tipMergeset, mergedBy, chain };
}

export function renderDag(svg: SVGSVGElement, blocks: readonly DagBlock[], light: LightChainView | undefined): void {
  // Read before anything is written: a read after a write forces a layout of the page (issue 32).
  const labelScale = width / Math.max(1, svg.clientWidth || width);
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  if (blocks.length === 0) return;
  const { reds, tipMergeset, mergedBy, chain } = colour(light);
  // On the chain by the tab's own GHOSTDAG once verified; the node's word (at announcement time) before that.
  const onChain = (b: DagBlock): boolean => (light?.has(b.hash.slice(2)) ? chain.has(b.hash.slice(2)) : b.chain);
  const minScore = Math.min(...blocks.map((b) => b.blueScore));
  const maxScore = Math.max(...blocks.map((b) => b.blueScore));
  const span = Math.max(1, maxScore - minScore);
  const lanes = new Map<number, number>();
  const pos = new Map<string, { x: number; y: number }>();
  // Chain blocks first, so they hold the middle lane and side blocks stack around them.
  for (const b of [...blocks].sort((a, c) => Number(onChain(c)) - Number(onChain(a)))) {
    const lane = lanes.get(b.blueScore) ?? 0;
    lanes.set(b.blueScore, lane + 1);
    pos.set(b.hash, { x: 20 + ((b.blueScore - minScore) / span) * (width - 40), y: (height - 18) / 2 + (lane % 2 === 0 ? 1 : -1) * Math.ceil(lane / 2) * laneGapPx });
  }
  const edges: string[] = [];
  const nodes: string[] = [];
  for (const b of blocks) {
    const p = pos.get(b.hash)!;
    const id = b.hash.slice(2);
    const selectedParent = light?.mergeset(id)?.selectedParent ?? null;
    b.parents.forEach((parent, i) => {
      const q = pos.get(parent);
      if (!q) return;
      // The selected parent: GHOSTDAG's when verified, else the node's first parent.
      const selected = selectedParent !== null ? parent.slice(2) === selectedParent : i === 0;
      edges.push(`<line x1="${q.x}" y1="${q.y}" x2="${p.x}" y2="${p.y}" data-edge="${selected ? 'selected-parent' : 'merge'}" stroke="${selected ? '#4b5d70' : '#6e7f91'}" stroke-width="${selected ? 2.5 : 1.2}"${selected ? '' : ' stroke-dasharray="4 3"'}/>`);
    });
    const known = light?.has(id) ?? false;
    const kind = !known ? 'unverified' : reds.has(id) ? 'red' : 'blue';
    const fill = kind === 'unverified' ? '#8b98a5' : kind === 'red' ? '#ff6b6b' : '#4ea1ff';
    const merger = mergedBy.get(id);
    const isChain = onChain(b);
    const role = isChain ? 'chain block' : `side block${merger ? `, merged ${kind} by 0x${merger.slice(0, 8)}…` : ''}`;
    const label = `block ${b.hash} (${kind}, ${role}${tipMergeset.has(id) ? ', in the tip’s merge set' : ''})`;
    const ring = tipMergeset.has(id) ? ` stroke="#e6edf3" stroke-width="2"` : '';
    nodes.push(`<a href="#/block/${b.hash}" aria-label="${label}"><circle cx="${p.x}" cy="${p.y}" r="${isChain ? 8 : 6}" fill="${fill}"${ring} data-kind="${kind}" data-chain="${isChain}"${tipMergeset.has(id) ? ' data-tip-mergeset="true"' : ''}><title>${label}</title></circle></a>`);
  }
  svg.innerHTML = edges.join('') + nodes.join('') + heightLabels(blocks.filter(onChain), pos, labelScale);
}

/**
 * Chain blocks' heights along the bottom, oldest first, each at least five characters' width from the previous one
 * so they never overlap. `scale` is viewBox units per CSS pixel: on a phone the view is drawn at a third of its
 * size, and the labels are drawn larger so they read at the same size.
 */
function heightLabels(chainBlocks: readonly DagBlock[], pos: ReadonlyMap<string, { x: number; y: number }>, scale: number): string {
  const font = Math.min(40, labelFontPx * scale);
  const labelGapMin = font * 5;
  const labelY = height - 4;
  const labels: string[] = [];
  let lastX = -Infinity;
  for (const b of [...chainBlocks].sort((a, c) => a.blueScore - c.blueScore)) {
    const x = pos.get(b.hash)?.x;
    if (x === undefined || b.height === undefined || x - lastX < labelGapMin) continue;
    lastX = x;
    const anchor = x < 40 ? 'start' : x > width - 40 ? 'end' : 'middle';
    labels.push(`<text x="${x}" y="${labelY}" text-anchor="${anchor}" font-size="${font.toFixed(1)}" fill="#8b98a5" data-height="${b.height}">${formatInteger(b.height)}</text>`);
  }
  return labels.length ? `<g class="dag-heights" aria-hidden="true">${labels.join('')}</g>` : '';
}
