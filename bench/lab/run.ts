/**
 * `npm run lab -- <scenario>` (bench/lab/scenarios/<scenario>.ts): runs the scenario on this box and writes
 * build/lab/<scenario>-<time>/report.{json,md,svg} and each node's log (node-<i>.jsonl). Prints the Markdown table. docs/network.md lists the scenarios.
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runScenario, type Scenario } from './lab.ts';
import { labMarkdown, writeLabReport } from './report.ts';

const name = process.argv[2];
if (name === undefined || !/^[a-z0-9-]+$/.test(name)) {
  console.error('usage: npm run lab -- <scenario>   (a file in bench/lab/scenarios/)');
  process.exit(2);
}
const { scenario } = (await import(`./scenarios/${name}.ts`)) as { scenario: Scenario };
const run = await runScenario(scenario, (line) => console.log(line));
const dir = join(resolve(fileURLToPath(new URL('../..', import.meta.url))), 'build', 'lab', `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
const figures = writeLabReport(run, dir);
console.log(labMarkdown(figures));
console.log(`report: ${dir}`);
if (figures.errors.length > 0) {
  console.error(`errors:\n${figures.errors.join('\n')}`);
  process.exit(1);
}
