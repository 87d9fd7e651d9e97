import { SignedState } from './signed-state';

describe('SignedState', () => {
  const state = new SignedState('k'.repeat(32));

  it('gives back what it signed, for the same purpose, until it expires', () => {
    const token = state.sign('approval', { b: 'binding', n: 'nonce' }, 1000, 10_000);
    expect(state.verify('approval', token, 10_500)).toMatchObject({ b: 'binding', n: 'nonce', exp: 11_000 });
    expect(state.verify('approval', token, 11_001)).toBeUndefined();
    expect(state.verify('session', token, 10_500)).toBeUndefined();
  });

  it('refuses a changed payload, a changed signature, another key and anything not a token', () => {
    const token = state.sign('approval', { b: 'binding' }, 60_000);
    const [body, mac] = token.split('.');
    const changed = Buffer.from(Buffer.from(body, 'base64url').toString().replace('binding', 'bindinG')).toString(
      'base64url',
    );
    expect(state.verify('approval', `${changed}.${mac}`)).toBeUndefined();
    const otherMac = `${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`;
    expect(state.verify('approval', `${body}.${otherMac}`)).toBeUndefined();
    expect(new SignedState('o'.repeat(32)).verify('approval', token)).toBeUndefined();
    for (const bad of [undefined, 42, '', 'x', `${token}.extra`, 'a'.repeat(5000), `${body}`]) {
      expect(state.verify('approval', bad)).toBeUndefined();
    }
  });

  it('refuses a correctly signed body that is not a JSON object', () => {
    const forged = new SignedState('k'.repeat(32)) as unknown as { mac(body: string): string };
    const body = Buffer.from('[1,2]').toString('base64url');
    expect(state.verify('approval', `${body}.${forged.mac(body)}`)).toBeUndefined();
  });
});
