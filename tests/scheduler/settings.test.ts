import { afterEach, describe, expect, it } from 'vitest';
import type { Harness } from '../scenarios/harness.js';
import { FIRST_DUE, meta, scheduled } from './fixtures.js';

let h: (Harness & { id: string }) | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

describe('/campaign settings: the schedule is validated before it is stored', () => {
  it('GIVEN a bad cron expression THEN it is refused with an example of a good one, and the schedule is unchanged', async () => {
    h = await scheduled();
    for (const bad of ['0 25 * * *', 'every day', '0 8 * * * *', '61 * * * *']) {
      const [out] = await h.run(`@referee /campaign settings cadence:"${bad}"`);
      expect(out).toMatchObject({ to: 'ephemeral', data: { error: 'settings.badCadence' } });
      expect(out?.content).toContain('cadence:"0 8,20 * * *"');
    }
    expect(meta(h.app, h.id)?.nextTickAt).toBe(FIRST_DUE);
  });

  it('GIVEN an unknown timezone THEN it is refused with examples (node-cron would accept it and fail later)', async () => {
    h = await scheduled();
    const [out] = await h.run('@referee /campaign settings timezone:Mars/Olympus_Mons');
    expect(out).toMatchObject({ to: 'ephemeral', data: { error: 'settings.badTimezone' } });
    expect(out?.content).toContain('timezone:Europe/Berlin');
  });

  it('GIVEN a good cadence on a running campaign THEN the next tick follows it at once', async () => {
    h = await scheduled();
    const [out] = await h.run('@referee /campaign settings cadence:"30 */2 * * *"');
    expect(out?.to).toBe('reply');
    expect(meta(h.app, h.id)?.nextTickAt).toBe('2026-11-22T10:30:00.000Z');
  });

  it('GIVEN a bad catch-up policy THEN the console refuses it, naming the choices', async () => {
    h = await scheduled();
    const [out] = await h.run('@referee /campaign settings catch-up:some');
    expect(out).toMatchObject({ to: 'ephemeral', data: { error: 'console.badValue' } });
    expect(out?.content).toContain('all, one, none');
  });
});
