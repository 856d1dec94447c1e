/**
 * The memories prepared modules import (docs/contracts.md "Instrumentation"), kept for reuse. A new
 * WebAssembly.Memory makes the engine reserve and guard a large address range (V8: tens of µs, and address-space
 * pressure that forces garbage collections), which was most of a call's fixed cost when every instance defined its
 * own. A memory handed out here is all zeros, exactly what a freshly created one is — the instance's data segments
 * are written into it when it is instantiated — so reusing one is invisible to the contract: nothing of an earlier
 * call survives, and a call sees the same bytes in Node and in a browser.
 */
import { vmMemoryPagesMax } from '../limits.ts';

/** Idle memories kept per page count: enough for calls nested in a host function, bounded for the address space. */
const idleMax = 4;
const idle: WebAssembly.Memory[][] = Array.from({ length: vmMemoryPagesMax + 1 }, () => []);

/** A zeroed memory of exactly `pages` pages that cannot grow (initial = maximum), as prepared modules import it. */
export function takeMemory(pages: number): WebAssembly.Memory {
  const memory = idle[pages]?.pop();
  if (!memory) return new WebAssembly.Memory({ initial: pages, maximum: pages });
  // Zeroed when taken rather than when released, so no path can hand out a memory that still holds a call's bytes.
  new Uint8Array(memory.buffer).fill(0);
  return memory;
}

/** Hands back a memory from takeMemory once its instance is done with. */
export function releaseMemory(memory: WebAssembly.Memory, pages: number): void {
  const list = idle[pages];
  if (list && list.length < idleMax) list.push(memory);
}
