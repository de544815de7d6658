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
import { runCli } from '../../test/support/cli.ts';

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

describe('inviting an address that is another account\'s user', () => {
  /** What the team page says of `email` once invited: the answer's notice and link, and the address's row, with the parts that differ by nature made alike. */
  const invitationOf = (body: string, email: string) => {
    const alike = (text: string) => text.replaceAll(email, 'EMAIL').replace(/token=[\w-]{43}/, 'token=T').replace(/usr_[\w-]{22}/g, 'usr_ID');
    const notice = /<div class="notice success"[^]*?<\/div>/.exec(body)?.[0] ?? '';
    const link = /id="invite-link" readonly value="([^"]+)"/.exec(body)?.[1] ?? '';
    const row = body.split('<tr>').find((part) => part.includes(email))?.split('</tr>')[0] ?? '';
    return { notice: alike(notice), link: alike(link), row: alike(row) };
  };

  it('answers as for any invitation, keeps no user and no working link, and lets the team remove it; an operator sees it', async () => {
    const { client: ada, account: acme } = await newUser(service, 'acme');
    const { email: boEmail, account: bolt } = await newUser(service, 'bolt');
    const fresh = newPerson('cy').email;

    await ada.get(teamPath(acme.id));
    const real = await ada.submit(teamPath(acme.id), { email: fresh });
    await ada.get(teamPath(acme.id));
    const held = await ada.submit(teamPath(acme.id), { email: boEmail.toUpperCase() });
    expect(held.statusCode).toBe(real.statusCode);
    expect(held.body).not.toContain('already has a user');
    expect(invitationOf(held.body, boEmail)).toEqual(invitationOf(real.body, fresh));
    expect(invitationOf((await ada.get(teamPath(acme.id))).body, boEmail).row).toEqual(invitationOf(ada.page, fresh).row);
    const audited = await service.app.store.audit.listAudit({ accountId: acme.id, limit: 10 });
    const entryOf = (email: string) => {
      const { seq, at, target, ...rest } = audited.find((entry) => entry.target === email)!;
      return rest;
    };
    expect(entryOf(boEmail)).toEqual(entryOf(fresh));

    // Nothing of Bo's changed, and the link shown leads nowhere, as a used or expired one.
    expect(await service.app.store.panel.findUserByEmail(boEmail)).toMatchObject({ accountId: bolt.id });
    const link = new URL(/id="invite-link" readonly value="([^"]+)"/.exec(held.body)![1].replaceAll('&amp;', '&'));
    const opener = panelClient(service);
    expect((await opener.get(link.pathname + link.search)).statusCode).toBe(303);
    expect((await opener.get('/panel/link')).statusCode).toBe(410);
    // Asked again, it answers as for an invited teammate.
    await ada.get(teamPath(acme.id));
    const again = await ada.submit(teamPath(acme.id), { email: boEmail });
    expect(again.statusCode).toBe(422);
    expect(again.body).toContain(`${boEmail} already has a user; for a new link, use recovery.`);

    const [kept] = await service.app.store.panel.held.list(acme.id);
    expect(kept).toMatchObject({ email: boEmail });
    const listed = await runCli({ LOC_DATA_DIR: service.dataDir }, 'users', 'held', '--json');
    expect(JSON.parse(listed.stdout)).toContainEqual({
      id: kept.id, email: boEmail, account: acme.name, accountId: acme.id, invitedBy: expect.any(String), createdAt: kept.createdAt, userOf: bolt.name,
    });

    await ada.get(teamPath(acme.id));
    expect((await ada.submit(teamPath(acme.id, '/remove'), { user: kept.id })).headers.location).toBe(`${teamPath(acme.id)}?done=removed`);
    expect(await service.app.store.panel.held.list(acme.id)).toEqual([]);
    expect((await ada.get(teamPath(acme.id))).body).not.toContain(boEmail);
    expect((await service.app.store.audit.listAudit({ accountId: acme.id, limit: 1 }))[0]).toMatchObject({ action: 'user.remove', target: boEmail });

    // The operator's way out: drop it from the CLI.
    await ada.get(teamPath(acme.id));
    await ada.submit(teamPath(acme.id), { email: boEmail });
    const [second] = await service.app.store.panel.held.list(acme.id);
    const cli = (...args: string[]) => runCli({ LOC_DATA_DIR: service.dataDir }, 'users', ...args);
    expect(await cli('drop-held', second.id)).toEqual({ code: 0, stdout: `Dropped the held invitation ${second.id}.\n`, stderr: '' });
    expect(await cli('drop-held', second.id)).toMatchObject({ code: 1, stderr: expect.stringContaining('No held invitation has the id') });
    expect(await service.app.store.panel.held.list(acme.id)).toEqual([]);
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
