/**
 * An address as a QR code (qrcode-generator, ISO/IEC 18004). The address is encoded in capitals: BIP173 allows an
 * all-uppercase bech32m string precisely so QR codes can use the denser alphanumeric mode (a 64-character Weft
 * address is version 4, 33 × 33 modules, where lowercase byte mode needs version 5, 37 × 37), and decodeAddress
 * accepts it. Error correction M (15 %), a 4-module quiet zone as the standard asks. The module grid and one SVG path
 * are pure; the explorer writes the SVG as markup (`addressQrSvg`), the wallet draws into its own element
 * (`drawAddressQr`). One module for both: the explorer had its own, in byte mode, a version larger.
 */
import qrcode from 'qrcode-generator';
import { escapeHtml } from './format.ts';

/** The quiet zone around the code, in modules (ISO/IEC 18004 §6.3.8). */
export const qrQuietModules = 4;

/** The text a QR code of `address` carries: the address in capitals (alphanumeric mode). */
export const qrTextOf = (address: string): string => address.toUpperCase();

/** Characters QR's alphanumeric mode can carry (ISO/IEC 18004 §7.4.4). */
const alphanumeric = /^[0-9A-Z $%*+\-./:]*$/;

/**
 * The dark modules of the QR code of `address`, row by row. Text that is no address (a mistyped explorer route) has
 * characters alphanumeric mode cannot carry: it is encoded as typed, in byte mode.
 */
export function addressQrModules(address: string): boolean[][] {
  const code = qrcode(0, 'M');
  const text = qrTextOf(address);
  if (alphanumeric.test(text)) code.addData(text, 'Alphanumeric');
  else code.addData(address, 'Byte');
  code.make();
  const count = code.getModuleCount();
  return Array.from({ length: count }, (_, row) => Array.from({ length: count }, (_, col) => code.isDark(row, col)));
}

/** The QR code of `address` as one SVG path of unit squares, and the side of its viewBox (quiet zone included). */
export function addressQrSvgPath(address: string): { side: number; path: string } {
  const modules = addressQrModules(address);
  const parts: string[] = [];
  modules.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) parts.push(`M${x + qrQuietModules} ${y + qrQuietModules}h1v1h-1z`);
    }),
  );
  return { side: modules.length + 2 * qrQuietModules, path: parts.join('') };
}

/** The QR code of `address` as SVG markup, `role="img"` named after the address, `sizePx` square. */
export function addressQrSvg(address: string, sizePx = 168): string {
  const { side, path } = addressQrSvgPath(address);
  return `<svg class="qr" role="img" aria-label="QR code of address ${escapeHtml(address)}" viewBox="0 0 ${side} ${side}" width="${sizePx}" height="${sizePx}" shape-rendering="crispEdges"><rect width="${side}" height="${side}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`;
}

const svgNs = 'http://www.w3.org/2000/svg';

/** Draws the QR code of `text` into `svg` (white background, black modules), replacing what it held. */
export function drawAddressQr(svg: SVGSVGElement, text: string): void {
  const { side, path } = addressQrSvgPath(text);
  svg.setAttribute('viewBox', `0 0 ${side} ${side}`);
  const background = document.createElementNS(svgNs, 'rect');
  Object.entries({ width: String(side), height: String(side), fill: '#fff' }).forEach(([k, v]) => background.setAttribute(k, v));
  const modules = document.createElementNS(svgNs, 'path');
  modules.setAttribute('d', path);
  modules.setAttribute('fill', '#000');
  svg.replaceChildren(background, modules);
}
