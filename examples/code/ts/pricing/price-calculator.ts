import { applyDiscounts } from './discount-rules';

export interface LineItem {
  sku: string;
  unitPrice: number;
  quantity: number;
}

export function calculateTotal(items: LineItem[], customerId: string): number {
  const subtotal = items.reduce((sum, item) => sum + item.unitPrice * item.quantity, 0);
  return applyDiscounts(subtotal, customerId);
}
