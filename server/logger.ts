/**
 * The node's logs (pino) on stdout, in one of two forms (docs/operations.md "Logs"):
 *
 *   json    one JSON object per line — machine-readable, for log collectors and tests; the default when stdout is
 *           not a terminal (a pipe, a file, a service manager)
 *   pretty  one human-readable line per entry (`12:00:01.250 INFO  block committed  height=42 …`), with the IBD
 *           progress as `sync 42.5% · 118 blocks/s · ETA 2m 05s` (per-block lines are held back while a sync runs,
 *           so the progress stays readable); the default on a terminal
 *
 * `--log-format json|pretty|auto` overrides the choice. The pretty form is formatted here from pino's own JSON line
 * (no pino-pretty dependency), so both forms carry exactly the same fields.
 */
import { pino, type Logger } from 'pino';

export type { Logger };
type LogFormat = 'auto' | 'json' | 'pretty';

interface LogOutput {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

export interface LoggerOptions {
  /** Default `auto`: pretty when the output is a terminal, else JSON. */
  readonly format?: LogFormat;
  /** Default process.stdout. */
  readonly output?: LogOutput;
  /** ANSI colours in pretty lines; default: when the output is a terminal and NO_COLOR is unset. */
  readonly color?: boolean;
}

export function createLogger(level: string, options: LoggerOptions = {}): Logger {
  const output = options.output ?? process.stdout;
  const pretty = options.format === 'pretty' || ((options.format ?? 'auto') === 'auto' && output.isTTY === true);
  const base = { level, base: { service: 'weft' }, timestamp: pino.stdTimeFunctions.isoTime };
  if (!pretty) return options.output ? pino(base, { write: (line: string) => void output.write(line) }) : pino(base);
  const color = options.color ?? (output.isTTY === true && process.env.NO_COLOR === undefined);
  const quiet = ibdQuieter();
  // On a terminal, a line a block (one a second) scrolls the `ready:` line — where the web app and the API key are —
  // out of sight within a minute: there they are debug lines (`--log-level debug` shows them). Piped, they stay.
  const perBlock = output.isTTY === true && !['debug', 'trace'].includes(level) ? isPerBlockLine : () => false;
  return pino(base, { write: (line: string) => void (quiet(line) || perBlock(line) || output.write(`${prettyLine(line, color)}\n`)) });
}

const isPerBlockLine = (line: string): boolean => /"event":"block_committed"/.test(line);

/**
 * For pretty logs: true for a `block_committed` line while an initial sync runs (between `sync_started` and
 * `sync_complete` / `sync_aborted`), whose hundreds of lines a second would bury the progress line. JSON keeps them all.
 */
function ibdQuieter(): (line: string) => boolean {
  let syncing = false;
  return (line) => {
    const event = /"event":"([a-z_]+)"/.exec(line)?.[1];
    if (event === 'sync_started') syncing = true;
    else if (event === 'sync_complete' || event === 'sync_aborted') syncing = false;
    return syncing && event === 'block_committed';
  };
}

const levelNames: Readonly<Record<number, string>> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const levelColors: Readonly<Record<number, string>> = { 10: '90', 20: '36', 30: '32', 40: '33', 50: '31', 60: '35' };
/** Fields every line has, shown in their own places (time, level, message) or not at all. */
const framing = new Set(['level', 'time', 'msg', 'service', 'pid', 'hostname', 'event']);

function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

function value(v: unknown): string {
  if (typeof v === 'string') return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  return JSON.stringify(v) ?? String(v);
}

/** IBD progress (src/p2p/ibd.ts `sync_progress`): percent, blocks per second and ETA on one line. */
function syncProgressText(e: Record<string, unknown>): string {
  const num = (k: string) => (typeof e[k] === 'number' ? (e[k] as number) : undefined);
  const percent = num('percent') ?? 0;
  const rate = num('blocksPerSecond') ?? num('blocks_per_second') ?? 0;
  const eta = num('etaSeconds') ?? num('eta_seconds');
  const target = num('target');
  const score = num('blueScore');
  return `sync ${percent.toFixed(1)}% · ${rate < 10 ? rate.toFixed(1) : Math.round(rate)} blocks/s · ETA ${eta === undefined ? 'unknown' : duration(eta)}`
    + (score !== undefined && target !== undefined ? ` · blue score ${score}/${target}` : '');
}

/** One pino JSON line as a human-readable line (an unparsable line is passed through as it is). */
export function prettyLine(json: string, color = false): string {
  let e: Record<string, unknown>;
  try {
    e = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.trimEnd();
  }
  const level = typeof e.level === 'number' ? e.level : 30;
  const name = (levelNames[level] ?? String(level)).padEnd(5);
  const time = typeof e.time === 'string' && e.time.length >= 23 ? e.time.slice(11, 23) : new Date().toISOString().slice(11, 23);
  const paint = (code: string, text: string) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);
  const head = `${paint('90', time)} ${paint(levelColors[level] ?? '0', name)}`;
  if (e.event === 'sync_progress') return `${head} ${syncProgressText(e)}`;
  const err = e.err as { message?: string; stack?: string } | undefined;
  const fields = Object.entries(e)
    .filter(([k, v]) => !framing.has(k) && k !== 'err' && v !== undefined)
    .map(([k, v]) => `${paint('90', `${k}=`)}${value(v)}`);
  const line = `${head} ${String(e.msg ?? '')}${fields.length > 0 ? `  ${fields.join(' ')}` : ''}`;
  return err ? `${line}\n    ${(err.stack ?? err.message ?? '').split('\n').join('\n    ')}` : line;
}
