/**
 * The transport port the secure session runs over, and the timer it is given. TCP (server/) and WebSocket
 * (browser, and the node's /p2p bridge) each implement `DuplexPort`; the core never opens sockets itself.
 * Also an in-memory port pair for tests and whole-network simulations.
 */

/**
 * - `stream`: bytes arrive with arbitrary boundaries (TCP); the session frames each Noise message as
 *   `u16 BE length ‖ message`.
 * - `message`: each `send` / `onData` carries exactly one Noise message (a WebSocket binary message), unframed.
 */
type PortFraming = 'stream' | 'message';

export interface DuplexPort {
  readonly framing: PortFraming;
  /** Queues bytes for the peer; never throws for a closed port (the session learns of it through onClose). */
  send(bytes: Uint8Array): void;
  /** One callback; the port buffers what arrives before it is registered. */
  onData(callback: (bytes: Uint8Array) => void): void;
  /** Called once, when the port closes for any reason (either side, network error). */
  onClose(callback: () => void): void;
  close(): void;
}

/** The injected timer (core code never reads the wall clock). Returns a function that cancels the timeout. */
export interface Timer {
  setTimeout(callback: () => void, delayMs: number): () => void;
}

export interface MemoryPortOptions {
  readonly framing?: PortFraming;
  /** Re-chunks what one side sends before the other receives it (stream ports: any boundaries). */
  readonly chunk?: (bytes: Uint8Array) => Uint8Array[];
  /** Edits bytes in flight (tests: tampering). Applied after `chunk`. */
  readonly intercept?: (bytes: Uint8Array, from: 'a' | 'b') => Uint8Array;
  /** How deliveries are deferred, so a send inside onData never re-enters the sender; default queueMicrotask. */
  readonly schedule?: (task: () => void) => void;
}

/** Two connected in-memory ports; closing either closes both. */
export function createMemoryPortPair(options: MemoryPortOptions = {}): [DuplexPort, DuplexPort] {
  const framing = options.framing ?? 'stream';
  const schedule = options.schedule ?? ((task: () => void) => queueMicrotask(task));
  let closed = false;

  interface End {
    dataCallback?: (bytes: Uint8Array) => void;
    closeCallback?: () => void;
    inbox: Uint8Array[];
  }
  const ends: Record<'a' | 'b', End> = { a: { inbox: [] }, b: { inbox: [] } };

  // Like a TCP end(): bytes sent before the close still arrive (the close callbacks are scheduled after them).
  function deliver(to: End, bytes: Uint8Array): void {
    if (to.dataCallback) to.dataCallback(bytes);
    else to.inbox.push(bytes);
  }

  function closeBoth(): void {
    if (closed) return;
    closed = true;
    schedule(() => {
      ends.a.closeCallback?.();
      ends.b.closeCallback?.();
    });
  }

  function port(self: 'a' | 'b'): DuplexPort {
    const me = ends[self];
    const peer = ends[self === 'a' ? 'b' : 'a'];
    return {
      framing,
      send(bytes) {
        if (closed) return;
        const copy = bytes.slice();
        const pieces = options.chunk ? options.chunk(copy) : [copy];
        for (const piece of pieces) {
          const edited = options.intercept ? options.intercept(piece, self) : piece;
          schedule(() => deliver(peer, edited));
        }
      },
      onData(callback) {
        me.dataCallback = callback;
        for (const bytes of me.inbox.splice(0)) callback(bytes);
      },
      onClose(callback) {
        me.closeCallback = callback;
      },
      close: closeBoth,
    };
  }
  return [port('a'), port('b')];
}

/**
 * The receiving half every socket adapter (TCP, the node's WebSocket bridge, the tab's WebSocket) shares: bytes that
 * arrive before `onData` is registered wait in order, `onClose` fires exactly once (at once when already closed).
 */
export interface PortInbox {
  /** Hands bytes to the data callback, or keeps a copy until there is one. */
  deliver(bytes: Uint8Array): void;
  /** Marks the port closed and tells the close callback, once. */
  closed(): void;
  isClosed(): boolean;
  onData(callback: (bytes: Uint8Array) => void): void;
  onClose(callback: () => void): void;
}

export function createPortInbox(): PortInbox {
  let dataCallback: ((bytes: Uint8Array) => void) | undefined;
  let closeCallback: (() => void) | undefined;
  const waiting: Uint8Array[] = [];
  let isClosed = false;
  return {
    deliver(bytes) {
      if (dataCallback) dataCallback(bytes);
      else waiting.push(bytes.slice());
    },
    closed() {
      if (isClosed) return;
      isClosed = true;
      closeCallback?.();
    },
    isClosed: () => isClosed,
    onData(callback) {
      dataCallback = callback;
      for (const bytes of waiting.splice(0)) callback(bytes);
    },
    onClose(callback) {
      closeCallback = callback;
      if (isClosed) callback();
    },
  };
}
