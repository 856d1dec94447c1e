/**
 * The unlocked wallet's views — Activity, Send, Receive, Escrow, Confidential, More — one at a time, chosen by the
 * page's hash (#send, #receive, ...), so each is a short page on a phone, a link can open one, and Back returns to
 * the previous one. The tabs are links; the current one carries aria-current="page".
 */
import { byId } from '../lib/dom.ts';

const walletViews = ['activity', 'send', 'receive', 'escrow', 'confidential', 'more'] as const;
type WalletView = (typeof walletViews)[number];

/** The view a hash names; anything else (empty, unknown) is Activity. */
function viewOfHash(hash: string): WalletView {
  const name = hash.replace(/^#/, '');
  return (walletViews as readonly string[]).includes(name) ? (name as WalletView) : 'activity';
}

/** Shows `view` and hides the others; the tab of `view` is marked current. */
function showView(view: WalletView): void {
  for (const name of walletViews) byId(`view-${name}`).hidden = name !== view;
  for (const tab of document.querySelectorAll<HTMLAnchorElement>('nav.views a[data-view]')) {
    if (tab.dataset['view'] === view) tab.setAttribute('aria-current', 'page');
    else tab.removeAttribute('aria-current');
  }
}

/** Follows the hash from now on; returns a function that stops following it. */
export function wireViews(): () => void {
  const follow = () => showView(viewOfHash(location.hash));
  addEventListener('hashchange', follow);
  follow();
  return () => removeEventListener('hashchange', follow);
}
