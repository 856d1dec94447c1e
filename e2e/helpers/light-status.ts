// What the tab's light node reports about itself (window.weftLight, web/light/): tip, join point, headers held.
import type { Page } from '@playwright/test';

export const lightStatus = (page: Page) => page.evaluate(() => window.weftLight?.status() ?? null);
