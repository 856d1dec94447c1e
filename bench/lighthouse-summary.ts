/**
 * What bench/lighthouse.ts keeps of a Lighthouse result (an LHR): the four category scores (0–100), first
 * contentful paint, and the audits that cost points — and the checks that make a broken run fail loudly instead of
 * printing a score for an error page (a runtime error, a category Lighthouse could not score, a page that answered
 * other than 200). Pure, so a Vitest test can hold it to its word without a browser.
 */

/** The four categories the bar names, in the order the bench prints them. */
export const categoryIds = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type CategoryId = (typeof categoryIds)[number];

/** The part of Lighthouse's `LH.Result` the summary reads (structural, so the test needs no Lighthouse import). */
export interface LighthouseResultLike {
  readonly finalDisplayedUrl?: string;
  readonly runtimeError?: { readonly code: string; readonly message: string };
  readonly runWarnings?: readonly string[];
  readonly categories: Readonly<Record<string, { readonly score: number | null; readonly auditRefs: readonly { readonly id: string; readonly weight: number }[] } | undefined>>;
  readonly audits: Readonly<Record<string, {
    readonly score: number | null;
    readonly scoreDisplayMode?: string;
    readonly numericValue?: number;
    readonly title: string;
    readonly displayValue?: string;
  } | undefined>>;
}

export interface PageSummary {
  readonly scores: Readonly<Record<CategoryId, number>>;
  readonly fcpMs: number;
  /** Audits that lost points, `category: id (display value)`, weighted ones first. */
  readonly failing: readonly string[];
}

export class LighthouseRunError extends Error {
  override readonly name = 'LighthouseRunError';
  constructor(readonly page: string, message: string) {
    super(`${page}: ${message}`);
  }
}

/** Lighthouse reports these when the page itself failed (a 404, a crash), with scores that mean nothing. */
const fatalWarning = /status code|did not load|unable to reliably load|page crashed|interstitial/i;

export function summarize(page: string, lhr: LighthouseResultLike): PageSummary {
  if (lhr.runtimeError) throw new LighthouseRunError(page, `Lighthouse runtime error ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
  const fatal = (lhr.runWarnings ?? []).find((w) => fatalWarning.test(w));
  if (fatal) throw new LighthouseRunError(page, `the page did not load as it should: ${fatal}`);
  const scores = {} as Record<CategoryId, number>;
  const failing: { line: string; weight: number }[] = [];
  for (const id of categoryIds) {
    const category = lhr.categories[id];
    if (!category || category.score === null) throw new LighthouseRunError(page, `no score for the ${id} category (an audit it needs errored)`);
    scores[id] = Math.round(category.score * 100);
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (!audit || audit.score === null || audit.score >= 1) continue;
      if (audit.scoreDisplayMode === 'informative' || audit.scoreDisplayMode === 'notApplicable' || audit.scoreDisplayMode === 'manual') continue;
      const value = audit.displayValue ? ` (${audit.displayValue})` : '';
      failing.push({ line: `${id}: ${ref.id}${value}`, weight: ref.weight });
    }
  }
  const fcp = lhr.audits['first-contentful-paint']?.numericValue;
  if (fcp === undefined || !Number.isFinite(fcp)) throw new LighthouseRunError(page, 'no first contentful paint measured');
  failing.sort((a, b) => b.weight - a.weight);
  return { scores, fcpMs: fcp, failing: failing.map((f) => f.line) };
}

/** The run whose performance score is the median (Lighthouse's own advice for variance), ties broken by FCP. */
export function medianRun(runs: readonly PageSummary[]): PageSummary {
  if (runs.length === 0) throw new RangeError('medianRun needs at least one run');
  const sorted = [...runs].sort((a, b) => a.scores.performance - b.scores.performance || b.fcpMs - a.fcpMs);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}
