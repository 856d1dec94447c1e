/** The public shapes of the tab's light node (web/light/light-node.ts): its state, its status line, its handle. */
import type { LightChainView } from '../../../src/light/light-chain.ts';

export type LightNodeState = 'starting' | 'syncing' | 'synced' | 'disconnected' | 'rejected';

export interface LightNodeStatus {
  readonly state: LightNodeState;
  readonly network: string;
  readonly verified: number;
  /** Headers replayed from IndexedDB at start. */
  readonly resumed: number;
  readonly headers: number;
  readonly tipHeight: number;
  readonly tipHash: string;
  readonly hashBackend: string;
  /**
   * Where verified headers are kept: IndexedDB; IndexedDB read at start while another tab of this origin is its
   * writer (new headers stay in memory); or memory where the browser refuses IndexedDB (third-party frames).
   */
  readonly storage: 'indexeddb' | 'indexeddb-reader' | 'memory';
  readonly syncSeconds: number;
  /** The pruning point this tab joined at (0x-hash), or null for a chain from genesis. */
  readonly joinedAt: string | null;
  readonly error: { readonly reason: string; readonly message: string; readonly headerHash?: string; readonly rule?: string; readonly proofReason?: string } | null;
}

export interface LightNode {
  readonly chain: LightChainView;
  status(): LightNodeStatus;
  onStatus(listener: (status: LightNodeStatus) => void): () => void;
  /** Resolves when the chain has caught up with the node once (now, if it already has). */
  synced(): Promise<void>;
  retry(): void;
  close(): void;
}
