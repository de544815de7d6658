/**
 * What the operator does to a key reaches maps already in visitors' browsers: the hourly limit of the
 * key's embed traffic (a recoverable error: the map keeps working), the limit of one session (final
 * for that session, while the key's own calls go on), and a key disabled or an account's partner
 * status taken away with the CLI while its maps are open (final ones). Each test makes its own key
 * with the operator CLI against the running service.
 */
import { randomUUID } from 'node:crypto';
import type { Frame, Page } from '@playwright/test';
import { encode } from '../src/code/index.ts';
import { HOUR_MS } from '../src/durations.ts';
import { expect, test } from './fixtures.ts';
import { events, mapFrame, mount, waitForEvent, waitForEvents } from './harness.ts';
import { cli, createKey } from './services.ts';
import { createSession, sidOf, type Stack } from './stack.ts';

const HOME = encode(52.51628, 13.37770);
const OPTIONS = { center: { lat: HOME.latitude, lng: HOME.longitude }, zoom: 19, confirm: false };
/** The map's centre pixel (pages.ts: 800 × 400): the home cell's centre. */
const CENTRE = { x: 400, y: 200 };

/** Mounts a map with a new session of `apiKey` and chooses the home cell once: the session's first call. */
async function mountAndChoose(page: Page, stack: Stack, apiKey: string): Promise<{ id: number; frame: Frame }> {
  const id = await mount(page, (await createSession({ service: stack.service, apiKey, origin: stack.pages })).session_token, OPTIONS);
  await waitForEvent(page, id, 'ready');
  const frame = await mapFrame(page, id);
  await frame.locator('#loc-map').click({ position: CENTRE });
  expect((await waitForEvent(page, id, 'select')).loc_code).toBe(HOME.loc_code);
  return { id, frame };
}

test('over the hourly limit of embed traffic: onError rate_limited, recoverable, with retryAfter, and the map keeps working', async ({ page, stack }) => {
  // The limit counts per clock hour: a test that straddled the hour's end would start counting again.
  await expect.poll(() => HOUR_MS - (Date.now() % HOUR_MS), { timeout: 20_000 }).toBeGreaterThan(10_000);
  // The key itself may make one call an hour — the session — and its visitors one between them.
  const { apiKey } = createKey(stack.dataDir, { account: `e2e-limited-${randomUUID()}`, origins: [stack.pages], hourlyLimit: 1, embedHourlyLimit: 1 });
  await page.goto(stack.pages);
  // The frame page and the session check are not counted; the session is the key's, not its visitors'.
  const { id, frame } = await mountAndChoose(page, stack, apiKey);
  await frame.locator('#loc-map').click({ position: CENTRE });
  const [error] = await waitForEvents(page, id, 'error', 1);
  expect(error).toMatchObject({ code: 'rate_limited', recoverable: true });
  expect(error.retryAfter).toBeGreaterThan(0);
  expect(error.retryAfter).toBeLessThanOrEqual(3600);
  await expect(frame.getByRole('alert')).toContainText('Too many locations were looked up just now.');
  await expect(frame.locator('#loc')).not.toHaveClass(/loc--stopped/);

  // Recoverable: the visitor may try again, and the map asks the service again.
  await frame.locator('#loc-map').click({ position: CENTRE });
  expect((await waitForEvents(page, id, 'error', 2))[1]).toMatchObject({ code: 'rate_limited', recoverable: true });
});

test("a session that has used its requests: onError session_limit_reached, final for it; the key's own calls go on", async ({ page, stack }) => {
  const { apiKey } = createKey(stack.dataDir, { account: `e2e-session-limited-${randomUUID()}`, origins: [stack.pages], sessionLimit: 1 });
  await page.goto(stack.pages);
  const { id, frame } = await mountAndChoose(page, stack, apiKey);
  await frame.locator('#loc-map').click({ position: CENTRE });
  expect(await waitForEvent(page, id, 'error')).toMatchObject({ code: 'session_limit_reached', recoverable: false });
  await expect(frame.locator('#loc')).toHaveClass(/loc--stopped/);
  await expect(frame.getByRole('alert')).toContainText('This map has looked up as many locations as it may.');

  // The partner's server is not held back by its visitors, and a new session has its own budget.
  const lookup = await fetch(`${stack.service}/v1/loc/lookup/${HOME.loc_code}`, { headers: { 'x-api-key': apiKey } });
  expect(lookup.status).toBe(200);
  await mountAndChoose(page, stack, apiKey);
});

/** What the operator takes away with the CLI while maps are open, and what those maps then report. */
const WITHDRAWALS = [
  { what: 'a key disabled', status: 401, code: 'key_inactive', run: (keyId: string) => ['keys', 'disable', keyId] },
  {
    what: 'an account no longer a partner', status: 403, code: 'partner_required',
    run: (_keyId: string, account: string) => ['accounts', 'set-partner', account, '--off'],
  },
];

for (const { what, status, code, run } of WITHDRAWALS) {
  test(`${what} with the CLI: its open map reports ${code} and stops; a new mount is refused at once`, async ({ page, stack }) => {
    // An account of its own on every run: the suite's service lives for the whole run (and through
    // --repeat-each), so a fixed name would find the partner status this test took away last time.
    const account = `e2e-withdrawn-${randomUUID()}`;
    const { apiKey, keyId } = createKey(stack.dataDir, { account, origins: [stack.pages] });
    const newToken = async () => (await createSession({ service: stack.service, apiKey, origin: stack.pages })).session_token;
    const [open, later] = [await newToken(), await newToken()];
    await page.goto(stack.pages);
    const id = await mount(page, open, OPTIONS);
    await waitForEvent(page, id, 'ready');

    cli(stack.dataDir, run(keyId, account));
    // The running service sees the change within a second (its key and session cache).
    await expect.poll(async () => (await fetch(`${stack.service}/embed/session/${sidOf(open)}`)).status).toBe(status);

    await (await mapFrame(page, id)).locator('#loc-map').click({ position: CENTRE });
    expect(await waitForEvent(page, id, 'error')).toMatchObject({ code, recoverable: false });
    await expect((await mapFrame(page, id)).locator('#loc')).toHaveClass(/loc--stopped/);
    await expect((await mapFrame(page, id)).getByRole('alert')).toContainText('This map cannot be used right now.');

    const refused = await mount(page, later, OPTIONS);
    expect(await waitForEvent(page, refused, 'error')).toMatchObject({ code, recoverable: false });
    expect((await events(page)).map(({ mount, name }) => `${mount} ${name}`)).toEqual([`${id} ready`, `${id} error`, `${refused} error`]);
  });
}
