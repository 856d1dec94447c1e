// Every page the node serves says what it is in a meta description (search engines and link previews read it;
// Lighthouse's SEO audit fails a page without one). The wallet pages (wallet.html, widget.html) are left to their
// redesign (issue 32, "Pages people would rather use").
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { statusPage } from '../../server/http/status-page.ts';

const redesignPending = new Set(['wallet.html', 'widget.html']);
const pages = readdirSync('web').filter((f) => f.endsWith('.html') && !redesignPending.has(f));

const descriptionOf = (html: string): string | undefined => /<meta name="description" content="([^"]*)"/.exec(html)?.[1];

describe('meta descriptions', () => {
  it.each(pages)('%s has one, of a useful length', (page) => {
    const html = readFileSync(`web/${page}`, 'utf8');
    const description = descriptionOf(html);
    expect(description).toBeDefined();
    expect(description!.length).toBeGreaterThanOrEqual(50);
    expect(description!.length).toBeLessThanOrEqual(160);
    expect(html.match(/<meta name="description"/g)).toHaveLength(1);
  });

  it('the status page has one', () => {
    expect(descriptionOf(statusPage)?.length).toBeGreaterThanOrEqual(50);
  });
});
