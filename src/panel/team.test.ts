/**
 * The team page against the real server and a real SQLite database: who a partner may remove, what an
 * invitation answers whoever the address belongs to, and which addresses are taken at all.
 */
import { describe, expect, it } from 'vitest';
import { newPerson, newUser, signedUpUser } from '../../test/support/panel-client.ts';
import { fileService } from '../../test/support/service.ts';
import { cliContext } from '../cli/operator-io.ts';
import { removeUser } from '../operations/users.ts';

const service = fileService();
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
