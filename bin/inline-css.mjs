// A step of the web build (vite.config.ts): every page's own stylesheets go into its HTML as <style>, so the first
// paint waits for the page alone. As a <link>, the stylesheet is render-blocking and shares the phone's link with the
// module scripts the page preloads, which on a slow connection held the explorer's first contentful paint behind its
// JavaScript (issue 32, docs/performance.md "Lighthouse"). The pages' CSS is a few KiB; the node's CSP allows inline
// styles (`style-src 'self' 'unsafe-inline'`, server/http/security-headers.ts), never inline scripts.

/** `<link rel="stylesheet" … href="…">` as Vite writes it (attributes in any order). */
const stylesheetLink = /<link\b(?=[^>]*\brel="stylesheet")[^>]*\bhref="([^"]+)"[^>]*>/g;

/**
 * Replaces each stylesheet link whose href `cssOf` knows with a <style> holding that CSS; links it does not know
 * (another origin, a file outside the build) stay as they are. A `</style` inside the CSS would end the element
 * early, so such a stylesheet is left linked too.
 */
export function inlineStylesheets(html, cssOf) {
  return html.replace(stylesheetLink, (link, href) => {
    const css = cssOf(href);
    if (css === undefined || /<\/style/i.test(css)) return link;
    return `<style>${css}</style>`;
  });
}

/** The Vite plugin: after the bundle is written into the pages, inline the CSS assets they link. */
export function inlineCssPlugin() {
  return {
    name: 'weft-inline-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle ?? {};
        return inlineStylesheets(html, (href) => {
          const asset = bundle[href.replace(/^\//, '')];
          if (!asset || asset.type !== 'asset' || !href.endsWith('.css')) return undefined;
          return typeof asset.source === 'string' ? asset.source : new TextDecoder().decode(asset.source);
        });
      },
    },
  };
}
