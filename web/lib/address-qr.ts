/**
 * An address as a QR code (qrcode-generator), drawn as one SVG path so it scales crisply: `role="img"` with the
 * address in its accessible name. Byte mode keeps the address's case exactly as the chain writes it.
 */
import qrcode from 'qrcode-generator';
import { escapeHtml } from './format.ts';

export function addressQrSvg(address: string, sizePx = 168): string {
  const qr = qrcode(0, 'M');
  qr.addData(address, 'Byte');
  qr.make();
  const n = qr.getModuleCount();
  const quiet = 4;
  let path = '';
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) if (qr.isDark(row, col)) path += `M${col + quiet} ${row + quiet}h1v1h-1z`;
  }
  const side = n + 2 * quiet;
  return `<svg class="qr" role="img" aria-label="QR code of address ${escapeHtml(address)}" viewBox="0 0 ${side} ${side}" width="${sizePx}" height="${sizePx}" shape-rendering="crispEdges"><rect width="${side}" height="${side}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`;
}
