// Issue 20, operator experience on the first try: `--help` everywhere exits 0 with usage; logs are JSON when stdout
// is not a terminal and readable lines on one (with the IBD progress line), `--log-format` overrides; the web app's
// favicon exists; `weft node` (what `npm start` runs) says once where the web app and the operator API key are.
import { execFile } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Hono } from 'hono';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { bundleIsFresh } from '../../bin/bundle-freshness.mjs';
import { main } from '../../server/cli.ts';
import { ConfigError, configKeys, loadConfig } from '../../server/config.ts';
import { createLogger, prettyLine } from '../../server/logger.ts';
import { faviconSvg, mountWebApp } from '../../server/http/web-app.ts';
import { startNodeProcess, type NodeProcess } from '../helpers/node-process.ts';
import { repoRoot } from '../vectors.ts';

const run = promisify(execFile);
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-op-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function captured(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((err += String(chunk)), true));
  try {
    return { code: await main(argv), out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

describe('--help', () => {
  it('`weft node --help` prints the node usage and exits 0 (the real bin/weft.mjs)', async () => {
    const { stdout, stderr } = await run(process.execPath, [resolve(repoRoot, 'bin/weft.mjs'), 'node', '--help'], { cwd: repoRoot });
    expect(stdout).toMatch(/^usage: weft node /);
    expect(stdout).toContain('--log-format');
    expect(stderr).not.toContain('needs a value');
  });

  it('`weft node --help` describes every flag the node takes, one line each (--archive, --fast-sync, --regtest-* too)', async () => {
    const { out } = await captured(['node', '--help']);
    const lines = out.trimEnd().split('\n');
    for (const key of configKeys) {
      const described = lines.filter((l) => new RegExp(`^  --${key}(\\s|$)`).test(l));
      expect(described, key).toHaveLength(1);
      expect(described[0]!.replace(/^\s*--\S+(\s\S+)?\s{2,}/, '').length, key).toBeGreaterThan(10);
    }
    for (const key of ['archive', 'fast-sync', 'regtest-rules-v2-at', 'regtest-header-version']) expect(out).toContain(`--${key}`);
  });

  it('`weft --help`, `weft -h`, `weft help node` and `weft <command> --help` print usage and exit 0; no command is 2', async () => {
    for (const argv of [['--help'], ['-h'], ['help'], ['help', 'node'], ['node', '--mine', '--help'], ['node', '-h'], ['apikey', '--help'], ['apikey', 'create', '--help'], ['oauth', 'client', '--help'], ['contract', '--help'], ['contract', 'deploy', '--help']]) {
      const r = await captured(argv);
      expect(r.code, argv.join(' ')).toBe(0);
      expect(r.out, argv.join(' ')).toMatch(/usage: weft/);
      expect(r.err).toBe('');
    }
    expect((await captured(['apikey', '--help'])).out).toMatch(/^usage: weft apikey/);
    expect((await captured(['contract', '--help'])).out).toMatch(/^usage: weft contract build/);
    expect((await captured([])).code).toBe(2);
  });
});

describe('logs', () => {
  const lines = (format: 'auto' | 'json' | 'pretty' | undefined, isTTY: boolean) => {
    const written: string[] = [];
    const logger = createLogger('info', { ...(format ? { format } : {}), output: { isTTY, write: (t: string) => written.push(t) }, color: false });
    logger.info({ event: 'peer_connected', height: 42, hash: '0xabc' }, 'peer connected');
    logger.info({ event: 'sync_progress', percent: 42.5, blocksPerSecond: 118.4, etaSeconds: 125, blueScore: 1200, target: 2850, applied: 1100 }, 'sync progress');
    return written.join('').trimEnd().split('\n');
  };

  it('are JSON when the output is not a terminal, readable lines on a terminal, and --log-format overrides either way', () => {
    const json = lines(undefined, false);
    expect(JSON.parse(json[0]!)).toMatchObject({ level: 30, msg: 'peer connected', height: 42, service: 'weft' });
    const pretty = lines(undefined, true);
    expect(pretty[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO  peer connected {2}height=42 hash=0xabc$/);
    expect(() => JSON.parse(pretty[0]!)).toThrow();
    expect(() => JSON.parse(lines('json', true)[0]!)).not.toThrow();
    expect(lines('pretty', false)[0]).toContain('INFO  peer connected');
    expect(lines('auto', true)[0]).toContain('INFO  peer connected');
  });

  it('show the IBD progress as one line with percent, blocks/s and ETA', () => {
    expect(lines('pretty', false)[1]).toMatch(/INFO {2}sync 42\.5% · 118 blocks\/s · ETA 2m 05s · blue score 1200\/2850$/);
    expect(prettyLine(JSON.stringify({ level: 30, time: '2025-01-01T00:00:00.000Z', event: 'sync_progress', percent: 3, blocksPerSecond: 0.5, etaSeconds: null }))).toBe(
      '00:00:00.000 INFO  sync 3.0% · 0.5 blocks/s · ETA unknown',
    );
    expect(prettyLine(JSON.stringify({ level: 50, time: '2025-01-01T00:00:00.000Z', msg: 'node failed', err: { message: 'boom', stack: 'Error: boom\n    at x' } }))).toBe(
      '00:00:00.000 ERROR node failed\n    Error: boom\n        at x',
    );
  });

  it('pretty logs hold back per-block lines while an initial sync runs, so the progress line stays readable; JSON keeps all', () => {
    const run = (format: 'pretty' | 'json') => {
      const written: string[] = [];
      const logger = createLogger('info', { format, output: { write: (t: string) => written.push(t) }, color: false });
      logger.info({ event: 'block_committed', height: 1 }, 'block committed');
      logger.info({ event: 'sync_started', target: 900 }, 'sync started');
      for (let h = 2; h < 6; h++) logger.info({ event: 'block_committed', height: h }, 'block committed');
      logger.info({ event: 'sync_progress', percent: 50, blocksPerSecond: 4, etaSeconds: 1 }, 'sync progress');
      logger.info({ event: 'sync_complete' }, 'sync complete');
      logger.info({ event: 'block_committed', height: 6 }, 'block committed');
      return written.join('').trimEnd().split('\n');
    };
    const pretty = run('pretty');
    expect(pretty.filter((l) => l.includes('block committed')).map((l) => /height=(\d+)/.exec(l)![1])).toEqual(['1', '6']);
    expect(pretty.some((l) => l.includes('sync 50.0% · 4.0 blocks/s · ETA 1s'))).toBe(true);
    expect(run('json').filter((l) => l.includes('block_committed'))).toHaveLength(6);
  });

  it('on a terminal, per-block lines are debug lines, so the ready line stays in sight; piped or at debug they show', () => {
    const run = (level: string, isTTY: boolean) => {
      const written: string[] = [];
      const logger = createLogger(level, { format: 'pretty', output: { isTTY, write: (t: string) => written.push(t) }, color: false });
      logger.info({ event: 'node_ready', web: 'http://127.0.0.1:8080/' }, 'ready: open http://127.0.0.1:8080/ for the web app');
      for (let h = 1; h <= 120; h++) logger.info({ event: 'block_committed', height: h }, 'block committed');
      return written.join('').trimEnd().split('\n');
    };
    expect(run('info', true)).toHaveLength(1);
    expect(run('info', true)[0]).toContain('ready: open http://127.0.0.1:8080/');
    expect(run('debug', true)).toHaveLength(121);
    expect(run('info', false)).toHaveLength(121);
  });

  it('--log-format is a documented config key: json, pretty or auto (the default)', () => {
    expect(loadConfig(['--log-format', 'pretty']).logFormat).toBe('pretty');
    expect(loadConfig([]).logFormat).toBe('auto');
    expect(() => loadConfig(['--log-format', 'xml'])).toThrow(ConfigError);
  });

  it('--cache-mb bounds the chain caches: 256 MB by default, at least 16, refused with a coded error otherwise', () => {
    expect(loadConfig([]).cacheMb).toBe(256);
    expect(loadConfig(['--cache-mb', '1024']).cacheMb).toBe(1024);
    expect(() => loadConfig(['--cache-mb', '8'])).toThrow(ConfigError);
    expect(() => loadConfig(['--cache-mb', 'lots'])).toThrow(ConfigError);
  });

  it('the depth rules may be lifted on regtest only, merge depth kept below finality depth', () => {
    expect(loadConfig(['--network', 'regtest']).params).toMatchObject({ mergeDepth: 50, finalityDepth: 100 });
    expect(loadConfig(['--network', 'regtest', '--regtest-merge-depth', '500', '--regtest-finality-depth', '5000']).params).toMatchObject({ mergeDepth: 500, finalityDepth: 5000 });
    expect(() => loadConfig(['--network', 'devnet', '--regtest-merge-depth', '500'])).toThrow(/regtest only/);
    expect(() => loadConfig(['--network', 'regtest', '--regtest-merge-depth', '500'])).toThrow(/must be below/);
  });
});

describe('favicon', () => {
  it('/favicon.ico is an ICO image and /favicon.svg an SVG, with or without a web build', async () => {
    const app = new Hono();
    mountWebApp(app, { network: 'regtest', wsPort: () => 0, distDir: tempDir() });
    const ico = await app.request('/favicon.ico');
    expect(ico.status).toBe(200);
    expect(ico.headers.get('content-type')).toBe('image/x-icon');
    const bytes = new Uint8Array(await ico.arrayBuffer());
    expect([...bytes.subarray(0, 8)]).toEqual([0, 0, 1, 0, 1, 0, 16, 16]); // ICONDIR: icon, 1 image, 16×16
    expect(bytes.length).toBe(6 + 16 + 40 + 16 * 16 * 4 + 16 * 4);
    const svg = await app.request('/favicon.svg');
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(await svg.text()).toBe(faviconSvg);
  });
});

// Two independent node processes (own datadirs, ports 0): they start, and wait out their quiet 1.5 s, side by side.
describe.concurrent('`weft node` says where to go, once', () => {
  const nodeArgs = (datadir: string) => ['--network', 'regtest', '--datadir', datadir, '--rpc-port', '0', '--ws-port', '0', '--p2p-port', '0'];
  const stop = async (p: NodeProcess) => {
    p.child.kill('SIGTERM');
    return p.exited;
  };

  it('logs one node_ready line with the web app URL and the API key file (JSON when piped), and the node serves its favicon', async () => {
    const p = startNodeProcess(nodeArgs(tempDir()));
    try {
      const ready = await p.waitFor((l) => l.event === 'node_ready', 90_000);
      expect(ready.msg).toMatch(/^ready: open http:\/\/127\.0\.0\.1:\d+\/ for the web app; the operator API key is in \/.+api\.cookie$/);
      expect(ready.web).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect(existsSync(ready.apiKeyFile as string)).toBe(true);
      expect(readFileSync(ready.apiKeyFile as string, 'utf8')).toMatch(/^weft_ak_/);
      // The bundle runs exactly when it is fresh (after `npm run build`, as `npm test` does); else the sources via tsx.
      expect(ready.runtime).toBe(bundleIsFresh() ? 'bundle' : 'tsx');
      expect((await fetch(ready.web as string)).status).toBe(200);
      // Anonymous, as a browser asks for it.
      const icon = await fetch(`${ready.web as string}favicon.ico`);
      expect(icon.status).toBe(200);
      expect(icon.headers.get('content-type')).toBe('image/x-icon');
      await new Promise((r) => setTimeout(r, 1500));
      expect(p.lines.filter((l) => l.event === 'node_ready')).toHaveLength(1);
    } finally {
      expect((await stop(p)).code).toBe(0);
    }
  }, 120_000);

  it('a node that cannot start (its P2P port taken) says why and exits 1, instead of hanging on what it had opened', async () => {
    const busy = createServer();
    await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done));
    const { port } = busy.address() as AddressInfo;
    const p = startNodeProcess([...nodeArgs(tempDir()).slice(0, -1), String(port)]);
    try {
      const exited = await Promise.race([p.exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 60_000))]);
      expect(exited).toEqual({ code: 1, signal: null });
      const failed = p.lines.find((l) => l.msg === 'node failed');
      expect((failed?.err as { code?: string } | undefined)?.code).toBe('EADDRINUSE');
    } finally {
      p.child.kill('SIGKILL');
      busy.close();
    }
  }, 120_000);

  it('with --log-format pretty every line is readable and the ready line appears exactly once', async () => {
    const p = startNodeProcess([...nodeArgs(tempDir()), '--log-format', 'pretty']);
    try {
      await p.waitFor((l) => l.msg.includes('ready: open http://'), 90_000);
      await new Promise((r) => setTimeout(r, 1500));
      const text = p.lines.map((l) => l.msg);
      expect(text.filter((l) => l.includes('ready: open http://'))).toHaveLength(1);
      expect(text.every((l) => !l.startsWith('{'))).toBe(true);
      expect(text.find((l) => l.includes('INFO  chain loaded'))).toBeDefined();
    } finally {
      await stop(p);
    }
  }, 120_000);
});
