/**
 * An address as a QR code (qrcode-generator, ISO/IEC 18004). The address is encoded in capitals: BIP173 allows an
 * all-uppercase bech32m string precisely so QR codes can use the denser alphanumeric mode (a 64-character Weft
 * address is version 4, 33 × 33 modules, where lowercase byte mode needs version 5, 37 × 37), and decodeAddress
 * accepts it. Error correction M (15 %), a 4-module quiet
 * zone as the standard asks. Pure: the module grid and one SVG path; the page builds the element.
 */
import qrcode from 'qrcode-generator';

/** The quiet zone around the code, in modules (ISO/IEC 18004 §6.3.8). */
export const qrQuietModules = 4;

/** The text a QR code of `address` carries: the address in capitals (alphanumeric mode). */
export const qrTextOf = (address: string): string => address.toUpperCase();

/** The dark modules of the QR code of `address`, row by row. */
export function addressQrModules(address: string): boolean[][] {
  const code = qrcode(0, 'M');
  code.addData(qrTextOf(address), 'Alphanumeric');
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
