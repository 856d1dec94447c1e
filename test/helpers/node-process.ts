// Runs `weft node` as a real child process (the same entry point as `npm start`) and reads its JSON log lines.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import { repoRoot } from '../vectors.ts';

export interface LogLine {
  msg: string;
  [key: string]: unknown;
}

export interface NodeProcess {
  readonly child: ChildProcess;
  readonly lines: LogLine[];
  /** Resolves with the first line (from the start) that satisfies `predicate`. */
  waitFor(predicate: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** Resolves with the exit code or signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startNodeProcess(args: readonly string[]): NodeProcess {
  const child = spawn(process.execPath, [resolve(repoRoot, 'bin/weft.mjs'), 'node', ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  const waiters = new Set<() => void>();
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  createInterface({ input: child.stdout! }).on('line', (text) => {
    try {
      lines.push(JSON.parse(text) as LogLine);
    } catch {
      lines.push({ msg: text });
    }
    for (const wake of waiters) wake();
  });
  // 'close', not 'exit': at 'exit' the child's stdout may still hold lines it wrote before it died (a SIGKILL mid-sync
  // left a test reading none of the hundreds of blocks the node had logged as committed).
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.on('close', (code, signal) => {
      for (const wake of waiters) wake();
      done({ code, signal });
    });
  });
  return {
    child,
    lines,
    exited,
    waitFor(predicate, timeoutMs = 60_000) {
      return new Promise((done, fail) => {
        const check = () => {
          const hit = lines.find(predicate);
          if (hit) {
            waiters.delete(check);
            clearTimeout(timer);
            done(hit);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            waiters.delete(check);
            clearTimeout(timer);
            fail(new Error(`node exited (${child.exitCode ?? child.signalCode}) before the awaited log line; stderr: ${stderr.slice(-2000)}`));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          fail(new Error(`timed out after ${timeoutMs} ms; last lines: ${JSON.stringify(lines.slice(-5))}; stderr: ${stderr.slice(-2000)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}
