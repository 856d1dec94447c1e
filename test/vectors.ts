// Official test vectors live in ../shared/vectors beside the checkout (CI clones the repo with shared/ beside it).
// Tests read them from there; none are copied into the repo.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

export const repoRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const vectorsRoot = resolve(repoRoot, '../shared/vectors');

export function vectorPath(...parts: string[]): string {
  return resolve(vectorsRoot, ...parts);
}

export function readVectorText(...parts: string[]): string {
  return readFileSync(vectorPath(...parts), 'utf8');
}

export function readVectorJson<T = unknown>(...parts: string[]): T {
  return JSON.parse(readVectorText(...parts)) as T;
}
