/**
 * The receive card: one of the wallet's addresses as text to copy and as a QR code (web/lib/address-qr.ts), an SVG with an
 * accessible name that says whose address it is. Copying uses the async Clipboard API and says so; where the
 * browser refuses it (no permission, an insecure origin), the address text is selected for the user to copy.
 */
import { drawAddressQr } from '../lib/address-qr.ts';
import { byId } from '../lib/dom.ts';


/** Draws the QR code of `address` into the (empty) `svg`. */
function drawQr(svg: SVGSVGElement, address: string): void {
  drawAddressQr(svg, address);
  svg.setAttribute('aria-label', `QR code of the address ${address}`);
}

export interface ReceiveCard {
  /** The wallet's addresses changed (a new one): refill the choice, keeping the one shown. */
  addressesChanged(addresses: readonly string[]): void;
}

export function wireReceiveCard(): ReceiveCard {
  const select = byId<HTMLSelectElement>('receive-address');
  const svg = document.getElementById('receive-qr') as unknown as SVGSVGElement;
  const show = () => {
    const address = select.value;
    byId('receive-text').textContent = address;
    byId('receive-copied').textContent = '';
    drawQr(svg, address);
  };
  select.onchange = show;
  byId('receive-copy').onclick = async () => {
    const address = select.value;
    try {
      await navigator.clipboard.writeText(address);
      byId('receive-copied').textContent = 'Address copied.';
    } catch {
      const range = document.createRange();
      range.selectNodeContents(byId('receive-text'));
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
      byId('receive-copied').textContent = 'The browser did not allow copying: the address is selected, copy it with your keyboard or menu.';
    }
  };
  return {
    addressesChanged(addresses) {
      const keep = select.value;
      select.replaceChildren(...addresses.map((a) => new Option(a, a)));
      select.value = addresses.includes(keep) ? keep : addresses[0] ?? '';
      if (select.value !== keep || byId('receive-text').textContent === '') show();
    },
  };
}
