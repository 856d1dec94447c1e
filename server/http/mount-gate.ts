/**
 * A request that arrives before every route is mounted waits for the mount (a few ms after the listening lines),
 * then goes to the finished app: a client that connects the moment the port is logged gets its answer, not a 503.
 * Hono builds its router on the first match, so routes cannot be added once a request was routed.
 */
import type { Hono } from 'hono';
import { rpcPathOf, type RpcListener } from './rpc-listener.ts';

export interface MountGate {
  /** The finished app, once every route is mounted. */
  serving: Hono | undefined;
  readonly mounted: Promise<void>;
  readonly markMounted: () => void;
}

export function createMountGate(): MountGate {
  let markMounted: () => void = () => undefined;
  const mounted = new Promise<void>((resolve) => {
    markMounted = resolve;
  });
  return { serving: undefined, mounted, markMounted };
}

/** The app as the servers see it: waits for the mount, then serves the finished app. */
export function gatedFront(gate: MountGate): Pick<Hono, 'fetch'> {
  return {
    fetch: async (request: Request, env: unknown) => {
      if (gate.serving === undefined) await gate.mounted;
      return gate.serving!.fetch(request, env);
    },
  } as Pick<Hono, 'fetch'>;
}

/** JSON-RPC as the servers see it: a call that arrives before the mount is answered once it is done. */
export function gatedRpc(gate: MountGate, rpcListener: RpcListener): RpcListener {
  return (req, res) => {
    if (gate.serving !== undefined) return rpcListener(req, res);
    if (rpcPathOf(req) === undefined) return false; // the front waits for the mount
    void gate.mounted.then(() => rpcListener(req, res));
    return true;
  };
}

/** Every route is mounted: serve the app and release the requests that waited. */
export function openGate(gate: MountGate, app: Hono): void {
  gate.serving = app;
  gate.markMounted();
}
