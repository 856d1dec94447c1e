/**
 * The WGSL PoW kernel's source for Node (browsers import it with Vite's `?raw`). Read from the repository's
 * shaders/ directory, so the file is the single source of truth for both platforms.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const powShaderPath = fileURLToPath(new URL('../../shaders/blake3-pow.wgsl', import.meta.url));

export function readPowShaderSource(): string {
  return readFileSync(powShaderPath, 'utf8');
}
