// bin/inline-css.mjs: the built pages carry their own CSS, so the first paint waits for no stylesheet request.
import { describe, expect, it } from 'vitest';
import { inlineStylesheets } from '../../../bin/inline-css.mjs';

const css: Record<string, string> = { '/assets/dom-abc.css': 'body{color:#fff}', '/assets/evil.css': 'a{}</style><script>x()</script>' };
const cssOf = (href: string): string | undefined => css[href];

describe('inlineStylesheets', () => {
  it('replaces a stylesheet link the build knows with a <style> holding its CSS, whatever the attribute order', () => {
    const html = '<head><link rel="stylesheet" crossorigin href="/assets/dom-abc.css"><link href="/assets/dom-abc.css" rel="stylesheet"></head>';
    expect(inlineStylesheets(html, cssOf)).toBe('<head><style>body{color:#fff}</style><style>body{color:#fff}</style></head>');
  });

  it('leaves module preloads, unknown stylesheets and CSS that would close the <style> element early alone', () => {
    const html = [
      '<link rel="modulepreload" crossorigin href="/assets/dom-abc.css">',
      '<link rel="stylesheet" href="https://cdn.example/x.css">',
      '<link rel="stylesheet" href="/assets/evil.css">',
    ].join('');
    expect(inlineStylesheets(html, cssOf)).toBe(html);
  });
});
