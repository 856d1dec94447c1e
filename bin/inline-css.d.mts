/** bin/inline-css.mjs: page stylesheets inlined into the built HTML. */
import type { Plugin } from 'vite';
export function inlineStylesheets(html: string, cssOf: (href: string) => string | undefined): string;
export function inlineCssPlugin(): Plugin;
