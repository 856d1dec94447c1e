// The web app's readable figures (web/lib/format.ts, docs/web.md "Readable figures"): amounts with the unit and
// thousands separators, exact strings never through a float; relative times; shortened hashes; escaped links.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { escapeHtml, formatCoins, formatInteger, linkHtml, localDate, minerHtml, minerHue, minerLabel, relativeTime, shortHash, timeHtml } from '../../../../web/lib/format.ts';
import { chartSummary } from '../../../../web/lib/chart.ts';

describe('formatCoins', () => {
  it('writes coins with the unit and thousands separators', () => {
    expect(formatCoins(1234.5)).toBe('1,234.5 WEFT');
    expect(formatCoins('21000000')).toBe('21,000,000 WEFT');
    expect(formatCoins(0)).toBe('0 WEFT');
    expect(formatCoins(100)).toBe('100 WEFT');
    expect(formatCoins(1000.05)).toBe('1,000.05 WEFT');
    expect(formatCoins(0.00000001)).toBe('0.00000001 WEFT');
    expect(formatCoins(150_000_000n)).toBe('1.5 WEFT');
  });
  it('prints an exact decimal string as it is, past what a double holds', () => {
    expect(formatCoins('20999999.99999999')).toBe('20,999,999.99999999 WEFT');
  });
  it('says so when there is no amount', () => {
    expect(formatCoins(null)).toBe('–');
    expect(formatCoins(Number.NaN)).toBe('–');
  });
});

describe('times', () => {
  const now = 1_800_000_000_000;
  it('are relative, in the unit a reader expects', () => {
    expect(relativeTime(now, now)).toBe('just now');
    expect(relativeTime(now + 5_000, now)).toBe('just now');
    expect(relativeTime(now - 12_000, now)).toBe('12 s ago');
    expect(relativeTime(now - 5 * 60_000, now)).toBe('5 min ago');
    expect(relativeTime(now - 3 * 3_600_000, now)).toBe('3 h ago');
    expect(relativeTime(now - 2 * 86_400_000, now)).toBe('2 d ago');
  });
  it('carry the instant and the local date', () => {
    expect(timeHtml(now)).toContain(`datetime="${new Date(now).toISOString()}"`);
    expect(timeHtml(now)).toContain(`title="${localDate(now)}"`);
    expect(timeHtml(0)).not.toContain('<time');
  });
  it('write the local date with its offset from UTC, the same instant as the ISO one', () => {
    const text = localDate(now);
    const [, date, time, sign, hours, minutes] = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) UTC([+−])(\d{2}):(\d{2})$/.exec(text) ?? [];
    expect(date, text).toBeDefined();
    const offsetMs = (sign === '−' ? -1 : 1) * (Number(hours) * 60 + Number(minutes)) * 60_000;
    expect(Date.parse(`${date}T${time}Z`) - offsetMs).toBe(now);
  });
});

describe('hashes and links', () => {
  const hash = `0x${'ab'.repeat(32)}`;
  it('shortens a hash to its ends, keeping short text whole', () => {
    expect(shortHash(hash)).toBe('0xabababab…abababab');
    expect(shortHash('rweft1short')).toBe('rweft1short');
  });
  it('shortens a block hash without its proof-of-work zeros, showing the digits that tell hashes apart (issue 32)', () => {
    const a = `0x000000${'7c41a9e2'}${'5'.repeat(42)}9be4d3e2`;
    const b = `0x000000${'7c41b003'}${'5'.repeat(42)}9be4d3e2`;
    expect(shortHash(a)).toBe('0x0…07c41a9e2…9be4d3e2');
    expect(shortHash(a)).not.toBe(shortHash(b));
    expect(shortHash(`0x00${'ab'.repeat(31)}`)).toBe('0x00ababab…abababab'); // two zeros: nothing to elide
    const html = linkHtml('block', a, { short: true });
    expect(html).toContain(`title="${a}"`);
    expect(html).toContain(`data-copy="${a}"`);
  });
  it('labels miners by what differs between their addresses, not the network prefix they share', () => {
    const one = 'rweft1qx7k2h5l0mzv3w4sd8c6g9tjr2ny5e4u0a9fqa';
    const two = 'rweft1qp3r8c2zq0v9lk7m5w2x4ysd3h6ej8u0a2kc7d';
    expect(minerLabel(one)).toBe('x7k2…9fqa');
    expect(minerLabel(two)).toBe('p3r8…kc7d');
    expect(minerHue(one)).not.toBe(minerHue(two));
    expect(minerHue(one)).toBe(minerHue(one));
    expect(minerHtml(one)).toContain(`title="${one}"`);
    expect(minerHtml(one)).toContain('>x7k2…9fqa</a>');
  });
  it('links with the full text in title and a named copy button', () => {
    const html = linkHtml('tx', hash, { short: true });
    expect(html).toContain(`href="#/tx/${hash}"`);
    expect(html).toContain(`title="${hash}"`);
    expect(html).toContain(`data-copy="${hash}"`);
    expect(html).toContain('aria-label="Copy transaction hash 0xabababab…abababab"');
    expect(linkHtml('address', 'x"><script>', { copy: false })).not.toContain('<script>');
    expect(linkHtml('escrow', hash)).toContain(`href="#/escrow/${hash}"`);
    expect(linkHtml('escrow', hash)).toContain('aria-label="Copy escrow id 0xabababab…abababab"');
    expect(linkHtml('agent', 'rweft1qz', { copy: false })).toBe('<a class="mono hash" href="#/agent/rweft1qz" title="rweft1qz">rweft1qz</a>');
  });
  it('writes integers with separators', () => {
    expect(formatInteger(1234567)).toBe('1,234,567');
    for (const n of [0, 7, 999, 1000, -1234, 123_456_789_012, 2.5e6 + 0.4]) expect(formatInteger(n)).toBe(Math.round(n).toLocaleString('en'));
    expect(formatInteger(Number.NaN)).toBe('–');
  });
});

describe('chart captions', () => {
  it('name the last plotted value', () => {
    expect(chartSummary([3, 1, Number.NaN, 2], (v) => `${v} s`)).toBe('latest 2 s');
    expect(chartSummary([], String)).toBe('no data yet');
  });
});

describe('escapeHtml', () => {
  it('escapes the five characters that end text or an attribute value, whichever quote it uses', () => {
    expect(escapeHtml(`<a href='x' title="y">&</a>`)).toBe('&lt;a href=&#39;x&#39; title=&quot;y&quot;&gt;&amp;&lt;/a&gt;');
    expect(escapeHtml('plain text, 1 < 2')).toBe('plain text, 1 &lt; 2');
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
  });

  it('is the only HTML escaper of the pages outside the wallet and the widget', () => {
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : name.endsWith('.ts') ? [join(dir, name)] : []));
    const own = walk('web').filter((file) => !/^web\/(wallet|widget)\//.test(file) && file !== join('web', 'lib', 'format.ts'));
    const escapers = own.filter((file) => readFileSync(file, 'utf8').includes("'&amp;'"));
    expect(escapers).toEqual([]);
  });
});
