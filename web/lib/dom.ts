/**
 * The web app's one DOM lookup helper. Pages look elements up by id (`byId`) or by selector (`query`);
 * both throw when the element is missing, so a renamed id fails at the first render instead of as a
 * `null` dereference three calls later.
 */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing element #${id}`);
  return el as T;
}

export function query<T extends Element = HTMLElement>(selector: string, root: ParentNode = document): T {
  const el = root.querySelector(selector);
  if (!el) throw new Error(`missing element ${selector}`);
  return el as T;
}
