import { OrderService } from './orders/order-service';
import { InMemoryOrderRepository } from './orders/order-repository';

export function createShop(): OrderService {
  return new OrderService(new InMemoryOrderRepository());
}
