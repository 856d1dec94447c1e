/**
 * Which wallet the widget opens (docs/widget.md "Your wallet"): the ones this browser already keeps for the node's
 * origin — the wallet page's (web/wallet.html) included, since both pages use the same IndexedDB database — to
 * unlock with their password; a new one only when there is none. Where the browser keeps an embedded frame's storage
 * apart from the node's own pages (storage partitioning, in a frame on another site), the wallet page's wallets
 * cannot be seen, and the widget says so in those words instead of offering to create a wallet as if there were none.
 */

/** A site as browsers partition storage by: scheme and registrable domain (an IP address or `localhost` is its own). */
function siteOf(origin: string): string {
  const { protocol, hostname } = new URL(origin);
  const ip = /^[\d.]+$/.test(hostname) || hostname.includes(':');
  const labels = hostname.split('.');
  return `${protocol}//${ip || labels.length <= 2 ? hostname : labels.slice(-2).join('.')}`;
}

/** Whether this frame is embedded in a page of another site (then its storage may be apart from the node's pages). */
export function embeddedCrossSite(ownOrigin: string, embedderOrigin: string | undefined): boolean {
  return embedderOrigin !== undefined && siteOf(embedderOrigin) !== siteOf(ownOrigin);
}

/** Why no wallet of the wallet page shows here, when none does in a frame on another site. */
export function apartMessage(nodeOrigin: string, embedderOrigin: string): string {
  return `No wallet of this browser shows here: this wallet is embedded in ${embedderOrigin}, another site, and the browser keeps `
    + `the storage of an embedded wallet apart from ${nodeOrigin}/wallet.html's. A wallet you made there cannot be opened here; `
    + 'create one below, or restore yours with its recovery phrase.';
}

/** The wallet to offer first: the widget's own if there is one, else the first the wallet page made. */
export function preferredWallet(names: readonly string[], widgetWalletName: string): string | undefined {
  return names.includes(widgetWalletName) ? widgetWalletName : names[0];
}
