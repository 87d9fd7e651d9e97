import { MappedPageBudget, residentFileBytes } from './mapped-pages';

describe('MappedPageBudget', () => {
  it('asks for a release only above the limit, looking at most every 100 ms', () => {
    let now = 0;
    let resident = 600;
    const budget = new MappedPageBudget(
      512,
      () => resident,
      () => now,
    );
    expect(budget.exceeded()).toBe(true);
    expect(budget.exceeded()).toBe(false);
    now = 100;
    resident = 100;
    expect(budget.exceeded()).toBe(false);
    now = 200;
    resident = 513;
    expect(budget.exceeded()).toBe(true);
  });

  it('never asks when the limit is 0 or the process cannot measure its mapped memory', () => {
    const measure = jest.fn(() => 10 ** 9);
    expect(new MappedPageBudget(0, measure).exceeded()).toBe(false);
    expect(measure).not.toHaveBeenCalled();
    let now = 0;
    const unsupported = jest.fn((): number | undefined => undefined);
    const budget = new MappedPageBudget(1, unsupported, () => (now += 1000));
    expect(budget.exceeded()).toBe(false);
    expect(budget.exceeded()).toBe(false);
    expect(unsupported).toHaveBeenCalledTimes(1);
  });

  it('reads the resident size of mapped files of this process on Linux', () => {
    if (process.platform !== 'linux') return;
    expect(residentFileBytes()).toBeGreaterThan(0);
  });
});
