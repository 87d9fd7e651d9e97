from ..utils.units import convert_units


class Warehouse:
    def __init__(self):
        self.levels = {}

    def put(self, sku, quantity_kg):
        self.levels[sku] = self.levels.get(sku, 0) + quantity_kg

    def take(self, sku, quantity, unit):
        needed = convert_units(quantity, unit, "kg")
        if self.levels.get(sku, 0) < needed:
            return False
        self.levels[sku] -= needed
        return True
