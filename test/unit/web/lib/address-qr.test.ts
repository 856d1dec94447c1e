// The address QR code of the explorer and the wallet (web/lib/address-qr.ts): alphanumeric capitals, the standard's
// finder patterns and quiet zone, one square per dark module; the explorer's markup draws the same path.
import { describe, expect, it } from 'vitest';
import { decodeAddress, encodeAddress, standardAddress } from '../../../../src/crypto/address.ts';
import { publicKeyFromPrivate } from '../../../../src/crypto/keys.ts';
import { addressQrModules, addressQrSvg, addressQrSvgPath, qrQuietModules, qrTextOf } from '../../../../web/lib/address-qr.ts';

const address = encodeAddress('rweft', standardAddress(publicKeyFromPrivate(new Uint8Array(32).fill(9))));

describe('address QR code', () => {
  it('carries the address in capitals, which decodes to the same address', () => {
    expect(qrTextOf(address)).toBe(address.toUpperCase());
    expect(decodeAddress(qrTextOf(address), 'rweft')).toEqual(decodeAddress(address, 'rweft'));
  });

  it('is version 4 (33 × 33 modules) at level M for a 65-character address in alphanumeric mode, with the three finder patterns', () => {
    expect(address).toHaveLength(65);
    const modules = addressQrModules(address);
    expect(modules).toHaveLength(33);
    for (const row of modules) expect(row).toHaveLength(33);
    // A finder pattern: a dark 7×7 ring, a light ring, a dark 3×3 centre (ISO/IEC 18004 §6.3.3).
    const finderAt = (top: number, left: number) => {
      for (let y = 0; y < 7; y++) {
        for (let x = 0; x < 7; x++) {
          const ring = Math.max(Math.abs(y - 3), Math.abs(x - 3));
          expect(modules[top + y]![left + x], `module ${top + y},${left + x}`).toBe(ring !== 2);
        }
      }
    };
    finderAt(0, 0);
    finderAt(0, 26);
    finderAt(26, 0);
  });

  it('draws one unit square per dark module inside a quiet zone', () => {
    const modules = addressQrModules(address);
    const { side, path } = addressQrSvgPath(address);
    expect(side).toBe(33 + 2 * qrQuietModules);
    const squares = [...path.matchAll(/M(\d+) (\d+)h1v1h-1z/g)].map((m) => [Number(m[1]) - qrQuietModules, Number(m[2]) - qrQuietModules]);
    expect(squares.length).toBe(modules.flat().filter(Boolean).length);
    for (const [x, y] of squares) expect(modules[y!]![x!]).toBe(true);
    expect(path.replace(/M\d+ \d+h1v1h-1z/g, '')).toBe('');
  });

  it('is written as markup for the explorer with the same path, named after the address', () => {
    const svg = addressQrSvg(address, 120);
    expect(svg).toContain(`d="${addressQrSvgPath(address).path}"`);
    expect(svg).toContain(`role="img" aria-label="QR code of address ${address}"`);
    expect(svg).toContain(`viewBox="0 0 41 41" width="120" height="120"`);
    // A mistyped route's text is drawn as typed (byte mode), escaped in the markup.
    expect(addressQrSvg('x"><script>')).not.toContain('<script>');
    expect(addressQrModules('x"><script>').length).toBeGreaterThan(20);
  });

  it('differs for different addresses', () => {
    const other = encodeAddress('rweft', standardAddress(publicKeyFromPrivate(new Uint8Array(32).fill(10))));
    expect(addressQrSvgPath(other).path).not.toBe(addressQrSvgPath(address).path);
  });
});
