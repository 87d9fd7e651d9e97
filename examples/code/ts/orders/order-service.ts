import { calculateTotal, LineItem } from '../pricing/price-calculator';
import { OrderRepository } from './order-repository';

export interface Order {
  id: string;
  customerId: string;
  items: LineItem[];
  total: number;
}

/** Places orders: prices the basket, then stores it. */
export class OrderService {
  constructor(private readonly repository: OrderRepository) {}

  placeOrder(customerId: string, items: LineItem[]): Order {
    const total = calculateTotal(items, customerId);
    const order: Order = { id: `order-${Date.now()}`, customerId, items, total };
    this.repository.saveOrder(order);
    return order;
  }

  findOrder(orderId: string): Order | undefined {
    return this.repository.loadOrder(orderId);
  }
}
