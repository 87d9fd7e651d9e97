import type { Order } from './order-service';

export interface OrderRepository {
  saveOrder(order: Order): void;
  loadOrder(orderId: string): Order | undefined;
}

export class InMemoryOrderRepository implements OrderRepository {
  private readonly orders = new Map<string, Order>();

  saveOrder(order: Order): void {
    this.orders.set(order.id, order);
  }

  loadOrder(orderId: string): Order | undefined {
    return this.orders.get(orderId);
  }
}
