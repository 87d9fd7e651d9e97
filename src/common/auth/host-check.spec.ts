import { isLocalRequest } from './host-check.middleware';

describe('isLocalRequest (DNS-rebinding protection)', () => {
  it.each([
    [{ host: 'localhost:30779' }, true],
    [{ host: '127.0.0.1:30779', origin: 'http://localhost:5173' }, true],
    [{ host: '[::1]:30779', origin: 'http://[::1]:8080' }, true],
    [{ host: 'evil.example.com' }, false],
    [{ host: '127.0.0.1:30779', origin: 'http://evil.example.com' }, false],
    [{ host: '127.0.0.1', origin: 'null' }, false],
    [{}, false],
  ])('%j → %s', (headers, expected) => {
    expect(isLocalRequest({ headers } as never)).toBe(expected);
  });
});
