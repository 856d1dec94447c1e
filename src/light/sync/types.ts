/** The public shapes of a light sync session (src/light/light-sync.ts): its options, its progress, its handle. */
import type { TrustedData } from '../../chain/trusted-data.ts';
import type { KeyPair } from '../../p2p/noise/suites.ts';
import type { DuplexPort, Timer } from '../../p2p/transport.ts';
import type { Clock } from '../../util/clock.ts';
import type { LightSyncError } from '../errors.ts';
import type { LightChain } from '../light-chain.ts';

export interface LightSyncProgress {
  /** Headers verified in this session. */
  readonly verified: number;
  readonly tipHeight: number;
  readonly tipHash: string;
  readonly tipBlueScore: number;
  /** What the node announced in its version (raised by later headers). */
  readonly peerBlueScore: number;
  /** True once a getheaders round ended without `more`. */
  readonly caughtUp: boolean;
}

export interface LightSyncOptions {
  readonly chain: LightChain;
  readonly port: DuplexPort;
  readonly staticKey: KeyPair;
  readonly randomBytes: (n: number) => Uint8Array;
  readonly timer: Timer;
  readonly clock: Clock;
  readonly userAgent: string;
  readonly onProgress?: (progress: LightSyncProgress) => void;
  /** Called for every page, after it was verified (benchmarks, tests). */
  readonly onPage?: (headers: number) => void;
  /**
   * Where the trusted data of a proven pruning point comes from (the half of LightJoinSource); by default the node
   * itself, by `gettrusteddata` pages on this session. A node that has none (`notfound`) leaves the tab syncing from
   * its own tip.
   */
  readonly trustedData?: (pruningPoint: Uint8Array) => Promise<TrustedData>;
  /** Called when the tab joined at a pruning point, before the first header above it. */
  readonly onJoin?: (pruningPoint: string) => void;
  /**
   * Verify every header from genesis and never join (a node that keeps them: an archive). For whoever wants the whole
   * header chain checked rather than the proof's work, and the baseline bench/fast-sync.ts measures joining against.
   */
  readonly fromGenesis?: boolean;
}

export interface LightSync {
  /** Resolves when the first round has caught up with the node; rejects with the error that ended the session. */
  readonly caughtUp: Promise<LightSyncProgress>;
  /** Resolves when the session ends: undefined for close(), else the reason. */
  readonly ended: Promise<LightSyncError | undefined>;
  progress(): LightSyncProgress;
  close(): void;
}
