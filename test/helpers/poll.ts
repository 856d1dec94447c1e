// Waiting on a real process from a test: poll `probe` until it gives a value, with a deadline that names what it
// waited for (process tests poll /health and RPC; a log line has its own waitFor in node-process.ts).
export async function pollFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000, intervalMs = 200): Promise<T> {
  const began = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - began > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
