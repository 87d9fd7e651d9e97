FACTORS = {"g": 0.001, "kg": 1.0, "t": 1000.0}


def convert_units(quantity, from_unit, to_unit):
    return quantity * FACTORS[from_unit] / FACTORS[to_unit]
