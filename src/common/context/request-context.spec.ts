import {
  attachRequestContext,
  currentRequestContext,
  RequestContext,
  requestContextOf,
  runWithRequestContext,
} from './request-context';

const CONTEXT: RequestContext = { requestId: 'r-1', language: 'en-US' };

/** Resolves after a few turns of the microtask queue, as a request's awaits would. */
async function later<T>(read: () => T): Promise<T> {
  await Promise.resolve();
  await new Promise((resolve) => setImmediate(resolve));
  return read();
}

// Module state: each test gets the module afresh, as a process that has declared nothing yet.
let context: typeof import('./request-context');
beforeEach(() => {
  jest.isolateModules(() => {
    context = jest.requireActual('./request-context');
  });
});

describe('request context', () => {
  it('rides on the request object whatever the ambient setting', () => {
    const request = {};
    context.declareAmbientRequestContext(false);
    context.attachRequestContext(request, CONTEXT);
    expect(context.requestContextOf(request)).toBe(CONTEXT);
    expect(context.requestContextOf({})).toBeUndefined();
    expect(context.requestContextOf(undefined)).toBeUndefined();
  });

  it('travels ambiently across awaits until an application declares it does not need that', async () => {
    expect(await context.runWithRequestContext(CONTEXT, () => later(() => context.currentRequestContext()))).toBe(
      CONTEXT,
    );
    context.declareAmbientRequestContext(false);
    expect(context.runWithRequestContext(CONTEXT, () => 'ran')).toBe('ran');
    expect(await context.runWithRequestContext(CONTEXT, () => later(() => context.currentRequestContext()))).toBe(
      undefined,
    );
  });

  it('stays ambient once any application of the process needs it', async () => {
    context.declareAmbientRequestContext(true);
    context.declareAmbientRequestContext(false);
    expect(await context.runWithRequestContext(CONTEXT, () => later(() => context.currentRequestContext()))).toBe(
      CONTEXT,
    );
  });
});

// The module as other specs see it (never declared): ambient, as before applications declared anything.
it('is ambient in code that never declares (tests, tools)', async () => {
  const request = {};
  attachRequestContext(request, CONTEXT);
  expect(requestContextOf(request)).toBe(CONTEXT);
  expect(await runWithRequestContext(CONTEXT, () => later(() => currentRequestContext()))).toBe(CONTEXT);
});
