// The explorer's gas rows for a contract transaction (web/explorer/contract-view.ts `gasRows`), as Etherscan shows
// them: the gas price in WEFT with its base units, and "Gas limit & usage" with the share of the limit used.
import { describe, expect, it } from 'vitest';
import { gasFields, gasRows } from '../../../../web/explorer/contract-view.ts';

const accepted = { kind: 'contract_call', fee: 0.00187546, fee_exact: '0.00187546', max_fee: 0.02, max_fee_exact: '0.02', gas_limit: 1_000_000, gas_used: 93_773, gas_price: 0.00000002, gas_price_exact: '0.00000002', gas_price_units: '2' };

describe('gasRows', () => {
  it('shows the price in WEFT and the limit, the gas used and its share once accepted', () => {
    const rows = Object.fromEntries(gasRows(accepted));
    expect(rows['Gas price']).toContain('0.00000002 WEFT');
    expect(rows['Gas price']).toContain('(2 base units per gas)');
    expect(rows['Gas limit & usage']).toContain('1,000,000 | 93,773 (9.38%)');
  });

  it('reads the gas used from the receipt when the view has none, and says when it has not run', () => {
    const { gas_used: _, ...pending } = accepted;
    expect(Object.fromEntries(gasRows(pending))['Gas limit & usage']).toContain('not run yet');
    expect(Object.fromEntries(gasRows({ ...pending, receipt: { gas_used: 500_000 } }))['Gas limit & usage']).toContain('1,000,000 | 500,000 (50.00%)');
  });

  it('adds nothing for other transactions, and names every gas field so no raw label shows', () => {
    expect(gasRows({ kind: 'transfer', fee: 0.01 })).toEqual([]);
    for (const key of Object.keys(accepted).filter((k) => k.startsWith('gas') || k.startsWith('max_fee'))) expect(gasFields).toContain(key);
  });
});
