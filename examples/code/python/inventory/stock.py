from .warehouse import Warehouse


def reserve_stock(warehouse: Warehouse, sku: str, quantity: float, unit: str = "kg") -> bool:
    """Reserves stock for an order; quantities may come in grams or kilograms."""
    return warehouse.take(sku, quantity, unit)
