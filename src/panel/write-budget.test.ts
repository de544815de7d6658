/**
 * The panel's write budget against the real server and a real SQLite database: one signed-in user's
 * changes are counted fleet-wide per window; past the budget a change is refused with 429 and
 * `Retry-After` and changes nothing, while that user can still read and sign out, and another user of
 * the same account still changes things; the next window lets the user change things again.
 */
import { describe, expect, it } from 'vitest';
import { PASSWORD, newUser, signedUpUser } from '../../test/support/panel-client.ts';
import { freshService } from '../../test/support/service.ts';
import { PANEL_WRITES_PER_WINDOW, PANEL_WRITE_WINDOW_MS } from './write-budget.ts';

describe('the panel’s write budget', () => {
  it('refuses a user’s changes past the budget of the window, and only theirs, until the next window', async () => {
    const service = await freshService();
    const { client: ada, account } = await newUser(service, 'acme');
    const { key } = await service.key(account.name);
    const keyPath = `/panel/accounts/${account.id}/keys/${key.id}`;
    await ada.get(keyPath);
    for (let i = 0; i < PANEL_WRITES_PER_WINDOW; i++) {
      const answer = await ada.submit(`${keyPath}/${i % 2 === 0 ? 'disable' : 'enable'}`);
      expect(answer.statusCode, `change ${i + 1}`).toBe(303);
    }
    const refused = await ada.submit(`${keyPath}/disable`);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(PANEL_WRITE_WINDOW_MS / 1000);
    expect(refused.body).toContain('Too many changes');
    expect((await service.app.store.getKey(key.id))!.status).toBe('active');

    expect((await ada.get(keyPath)).statusCode).toBe(200);
    const bo = await signedUpUser(service, account.name, 'bo@example.com');
    await bo.get(keyPath);
    expect((await bo.submit(`${keyPath}/disable`)).statusCode).toBe(303);
    expect((await service.app.store.getKey(key.id))!.status).toBe('disabled');

    service.clock.advance(PANEL_WRITE_WINDOW_MS);
    await ada.get('/panel/reauthenticate');
    expect((await ada.submit('/panel/reauthenticate', { password: PASSWORD, next: keyPath })).statusCode).toBe(303);
    await ada.get(keyPath);
    expect((await ada.submit(`${keyPath}/enable`)).statusCode).toBe(303);
    expect((await service.app.store.getKey(key.id))!.status).toBe('active');
    expect((await ada.submit('/panel/sign-out')).statusCode).toBe(303);
  });

  it('always lets a user sign out, budget spent or not', async () => {
    const service = await freshService();
    const { client: ada, account } = await newUser(service, 'acme');
    const { key } = await service.key(account.name);
    const keyPath = `/panel/accounts/${account.id}/keys/${key.id}`;
    await ada.get(keyPath);
    for (let i = 0; i <= PANEL_WRITES_PER_WINDOW; i++) await ada.submit(`${keyPath}/disable`);
    expect((await ada.submit(`${keyPath}/disable`)).statusCode).toBe(429);
    const out = await ada.submit('/panel/sign-out');
    expect(out.statusCode).toBe(303);
    expect(ada.cookie).toBeUndefined();
  });
});
