// The explorer's and miner's SVG line chart (web/lib/chart.ts): every y-axis label fits left of the plot, so a
// wide one keeps its leading digits ("23.51 MH/s" once read "3.51 MH/s", difficulty "1,563,262" read ",563,262").
import { describe, expect, it } from 'vitest';
import { formatRate, labelWidthPx, lineChartMarkup } from '../../../../web/lib/chart.ts';

const yLabels = (inner: string): { x: number; text: string }[] =>
  [...inner.matchAll(/<text x="([\d.]+)" y="[\d.]+" text-anchor="end"[^>]*>([^<]*)<\/text>/g)].map((m) => ({ x: Number(m[1]), text: m[2]! })).filter((l) => !/ago|now|height/.test(l.text));

describe('lineChartMarkup', () => {
  it.each([
    ['hash rate', [3_700_000, 23_510_000], formatRate],
    ['difficulty', [1_563_262, 1_401_007], (v: number) => Math.round(v).toLocaleString('en')],
    ['large difficulty', [123_456_789_012, 1], (v: number) => Math.round(v).toLocaleString('en')],
  ])('keeps every %s label whole inside the view', (_, values, format) => {
    const { inner, viewBox } = lineChartMarkup(values, { format, xLabels: ['60 min ago', 'now'], title: 't' });
    expect(viewBox).toBe('0 0 320 120');
    const labels = yLabels(inner);
    expect(labels.map((l) => l.text)).toEqual([format(Math.max(...values)), format(Math.min(...values))]);
    for (const label of labels) expect(label.x - labelWidthPx(label.text.length)).toBeGreaterThanOrEqual(0);
    // The plot (y axis line) starts right of the labels.
    const axisX = Number(/<line x1="([\d.]+)"/.exec(inner)![1]);
    for (const label of labels) expect(axisX).toBeGreaterThan(label.x);
  });

  it('bounds the width of the glyphs its labels use', () => {
    // 23.51 MH/s in system-ui at 10 px is about 52 px wide; the bound gives it 62.
    expect(labelWidthPx('23.51 MH/s'.length)).toBeGreaterThanOrEqual(56);
  });

  it('says when there is nothing to draw', () => {
    expect(lineChartMarkup([], { format: formatRate, xLabels: ['a', 'b'], title: 'Hash rate' }).label).toBe('Hash rate: no data yet');
  });
});
