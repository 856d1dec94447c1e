// bench/lighthouse.ts's reading of a Lighthouse report: scores as 0–100, FCP, the audits that cost points, and a
// loud failure for a run whose scores mean nothing (runtime error, page that did not load, unscored category).
import { describe, expect, it } from 'vitest';
import { LighthouseRunError, medianRun, summarize, type LighthouseResultLike, type PageSummary } from '../../../bench/lighthouse-summary.ts';

function report(over: Partial<LighthouseResultLike> = {}): LighthouseResultLike {
  const category = (score: number | null, ids: string[]) => ({ score, auditRefs: ids.map((id, i) => ({ id, weight: i + 1 })) });
  return {
    categories: {
      performance: category(0.744, ['first-contentful-paint', 'total-blocking-time']),
      accessibility: category(1, ['color-contrast']),
      'best-practices': category(0.96, ['errors-in-console']),
      seo: category(0.9, ['meta-description', 'robots-txt']),
    },
    audits: {
      'first-contentful-paint': { score: 0.8, numericValue: 1875.4, title: 'FCP', displayValue: '1.9 s' },
      'total-blocking-time': { score: 0.2, numericValue: 1260, title: 'TBT', displayValue: '1,260 ms' },
      'color-contrast': { score: 1, title: 'contrast', scoreDisplayMode: 'binary' },
      'errors-in-console': { score: 0, title: 'console', scoreDisplayMode: 'binary' },
      'meta-description': { score: 0, title: 'meta', scoreDisplayMode: 'binary' },
      'robots-txt': { score: null, title: 'robots', scoreDisplayMode: 'notApplicable' },
    },
    ...over,
  };
}

describe('summarize', () => {
  it('reads the four scores as 0–100, FCP in ms, and the audits that lost points, heaviest first', () => {
    const s = summarize('home', report());
    expect(s.scores).toEqual({ performance: 74, accessibility: 100, 'best-practices': 96, seo: 90 });
    expect(s.fcpMs).toBe(1875.4);
    expect(s.failing).toEqual([
      'performance: total-blocking-time (1,260 ms)',
      'performance: first-contentful-paint (1.9 s)',
      'best-practices: errors-in-console',
      'seo: meta-description',
    ]);
  });

  it('fails loudly on a Lighthouse runtime error', () => {
    const r = report({ runtimeError: { code: 'NO_FCP', message: 'The page did not paint any content.' } });
    expect(() => summarize('home', r)).toThrow(LighthouseRunError);
    expect(() => summarize('home', r)).toThrow(/home: .*NO_FCP/);
  });

  it('fails loudly when the page answered an error status', () => {
    const r = report({ runWarnings: ['Lighthouse was unable to reliably load the page you requested. (Status code: 404)'] });
    expect(() => summarize('wallet', r)).toThrow(/wallet: the page did not load/);
  });

  it('fails loudly when a category has no score', () => {
    const r = report();
    const broken = { ...r, categories: { ...r.categories, seo: { score: null, auditRefs: [] } } };
    expect(() => summarize('miner', broken)).toThrow(/no score for the seo category/);
  });
});

describe('medianRun', () => {
  const run = (performance: number, fcpMs: number): PageSummary => ({
    scores: { performance, accessibility: 100, 'best-practices': 100, seo: 100 }, fcpMs, failing: [],
  });

  it('picks the run with the median performance score', () => {
    expect(medianRun([run(64, 2000), run(78, 1500), run(74, 1800)]).scores.performance).toBe(74);
  });

  it('takes the lower middle of an even count, and refuses no runs', () => {
    expect(medianRun([run(90, 1), run(80, 1)]).scores.performance).toBe(80);
    expect(() => medianRun([])).toThrow(RangeError);
  });
});
