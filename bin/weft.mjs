#!/usr/bin/env node
// The `weft` command. The sources are TypeScript run through tsx's loader, so there is no separate compile step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../server/cli.ts');
process.exitCode = await main(process.argv.slice(2));
