/** An integer argument's bounds and default, declared once per argument and read by every door. */
export interface NumericRange {
  readonly min: number;
  readonly max: number;
  readonly default: number;
}
