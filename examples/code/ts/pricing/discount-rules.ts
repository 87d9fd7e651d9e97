const LOYAL_CUSTOMERS = new Set(['c-1', 'c-7']);

export function applyDiscounts(subtotal: number, customerId: string): number {
  const loyalty = LOYAL_CUSTOMERS.has(customerId) ? 0.1 : 0;
  const bulk = subtotal > 1000 ? 0.05 : 0;
  return Math.round(subtotal * (1 - loyalty - bulk) * 100) / 100;
}
