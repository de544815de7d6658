/**
 * The team page against the real server and a real SQLite database: who a partner may remove, what an
 * invitation answers whoever the address belongs to, and which addresses are taken at all.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { newPerson, newUser, panelClient, signedUpUser } from '../../test/support/panel-client.ts';
import { createTestDatabase, stopPostgres } from '../../test/support/postgres.ts';
import { fileService, testService } from '../../test/support/service.ts';
import { cliContext } from '../cli/operator-io.ts';
import { removeUser } from '../operations/users.ts';

const service = fileService();
afterAll(() => stopPostgres());
const teamPath = (accountId: string, rest = '') => `/panel/accounts/${accountId}/team${rest}`;

describe('removing a teammate', () => {
  it('a partner cannot remove an operator listed in its account; an operator can, and so can the CLI', async () => {
    const { client: ada, account: acme } = await newUser(service, 'acme');
    const opsPerson = newPerson('ops');
    const ops = await signedUpUser(service, acme.name, opsPerson.email, { operator: true });
    const opsUser = (await service.app.store.panel.findUserByEmail(opsPerson.email))!;

    expect((await ada.get(teamPath(acme.id))).body).not.toContain(`name="user" value="${opsUser.id}"`);
    const refused = await ada.submit(teamPath(acme.id, '/remove'), { user: opsUser.id });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('only an operator can remove');
    expect(await service.app.store.panel.getUser(opsUser.id)).not.toBeNull();
    expect((await ops.get(`/panel/accounts/${acme.id}/keys`)).statusCode).toBe(200);

    const other = newPerson('ops2');
    const second = await signedUpUser(service, acme.name, other.email, { operator: true });
    await second.get(teamPath(acme.id));
    const removed = await second.submit(teamPath(acme.id, '/remove'), { user: opsUser.id });
    expect(removed.statusCode).toBe(303);
    expect(await service.app.store.panel.getUser(opsUser.id)).toBeNull();

    const secondUser = (await service.app.store.panel.findUserByEmail(other.email))!;
    expect(await removeUser(cliContext(service.app.store), secondUser.id, { operator: true })).toMatchObject({ email: other.email });
  });
});

describe('the addresses invited', () => {
  it('refuses a control or invisible character with 422 naming the field, and shows a stored one escaped', async () => {
    const { client: ada, account: acme } = await newUser(service, 'acme');
    for (const [email, found] of [['ops\u200b@example.com', 'U+200B at position 3, an invisible format character'], ['a\u0000b@example.com', 'U+0000 at position 1, a control character']]) {
      await ada.get(teamPath(acme.id));
      const refused = await ada.submit(teamPath(acme.id), { email });
      expect(refused.statusCode, email).toBe(422);
      expect(refused.body).toContain(`email must be one line of visible text; found ${found}.`);
      expect(refused.body).toMatch(/name="email"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*name="email"/);
      expect(refused.body).not.toContain(email);
    }
    expect((await service.app.store.panel.listUsers(acme.id)).map((user) => user.email)).toHaveLength(1);

    // A row written before addresses were checked: shown escaped, in the list and on the remove button.
    await service.app.store.panel.createUser({ accountId: acme.id, email: 'eve\u202egro.elpmaxe@example.com', operator: false, createdAt: service.clock.now() });
    const page = (await ada.get(teamPath(acme.id))).body;
    expect(page).toContain('eve\\u202egro.elpmaxe@example.com');
    expect(page).not.toContain('\u202e');
  });

  it('refuses U+0000 on PostgreSQL with 422, and a sign-in with it is a wrong address, not a 500', async () => {
    const db = await createTestDatabase({ migrated: true });
    const server = await testService({ LOC_DATABASE_URL: db.url, LOC_LOG_LEVEL: 'warn' });
    try {
      const ada = await signedUpUser(server, 'acme', 'ada@example.com');
      const acme = (await server.app.store.findAccount('acme'))!;
      await ada.get(teamPath(acme.id));
      const refused = await ada.submit(teamPath(acme.id), { email: 'ops\u0000@example.com' });
      expect(refused.statusCode).toBe(422);
      expect(refused.body).toContain('found U+0000 at position 3, a control character');
      const signIn = await panelClient(server).submit('/panel/sign-in', { email: 'ada\u0000@example.com', password: 'correct horse battery staple' });
      expect(signIn.statusCode).toBe(401);
    } finally {
      await server.close();
      await db.dispose();
    }
  });
});
