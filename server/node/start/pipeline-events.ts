/** Block timings and template build times, fanned out to whoever listens (the metrics, once the API is up). */
import type { BlockTimings } from '../../../src/chain/chain.ts';

export interface PipelineEvents {
  blockTimings(timings: BlockTimings): void;
  templateBuilt(seconds: number): void;
  onBlockTimings(listener: (timings: BlockTimings) => void): void;
  onTemplateBuilt(listener: (seconds: number) => void): void;
}

export function createPipelineEvents(): PipelineEvents {
  const blocks = new Set<(timings: BlockTimings) => void>();
  const templates = new Set<(seconds: number) => void>();
  return {
    blockTimings: (timings: BlockTimings) => blocks.forEach((listener) => listener(timings)),
    templateBuilt: (seconds: number) => templates.forEach((listener) => listener(seconds)),
    onBlockTimings: (listener: (timings: BlockTimings) => void) => void blocks.add(listener),
    onTemplateBuilt: (listener: (seconds: number) => void) => void templates.add(listener),
  };
}
