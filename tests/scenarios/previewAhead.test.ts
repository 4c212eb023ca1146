import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { formatHex } from '../../src/engine/hex/index.js';
import { autumnWar, campaignState, consoleHarness, type Harness } from './harness.js';

/**
 * The /move preview lays out what the ticks will play where the army cannot march at once: a
 * multi-day crossing day by day, war machines at work, and the day the march itself fatigues the
 * army. Each reads what the commander is shown, then plays the ticks against it.
 */
let h: Harness | undefined;
afterEach(() => h?.close());
const err = (o: { data?: unknown } | undefined) => (o?.data as { error?: string } | undefined)?.error;
const ground = (name: string) => fileURLToPath(new URL(`../../docs/cases/scenarios/${name}.json`, import.meta.url));
// Clear skies all week: every weather die a 1 ("no change" on the clear column).
const DRY = Array.from({ length: 300 }, () => 1);

/** Where an army stands now, as a CCRR id (the small maps of the cases). */
function at(id: string): string {
  const a = h && campaignState(h).armies[id];
  if (!a) throw new Error(`no army ${id}`);
  return formatHex(a.hex);
}

async function ticks(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await h?.run('!tick');
}

describe('the /move preview, played ahead as the ticks play it', () => {
  it('GIVEN a ferry over two days with save:true THEN the preview closes the books each day as the tick does: the points saved before the crossing are gone by the far bank', async () => {
    h = await consoleHarness({ dice: DRY, setup: [`@referee /campaign create name:"Ferry" file:"${ground('marchland')}"`, '@referee /campaign assign army:foot user:alice', '@referee /campaign start', '@referee /army edit army:foot hex:1007'].join('\n') });
    const [plan] = await h.run('@alice /move army:foot path:"1107 1207 1307 1407" save:true');
    expect(err(plan)).toBeUndefined();
    expect(plan?.content).toContain('- cross the major river at 1107 by ferry: 2 day(s) — tomorrow, morning');
    // Landed on Day 4 with its 12 points of the day (the old preview kept 18 saved: 1207 and 1307 in the morning, 1407 the same day).
    expect(plan?.content).toContain('- 1207 clear: 6 pts — day +3, morning, 6 left');
    expect(plan?.content).toContain('- 1307 clear: 6 pts — day +3, afternoon, 0 left');
    expect(plan?.content).toContain('- 1407 clear: 6 pts — day +4, morning, 6 left');
    expect(plan?.content).toContain('Total: 24 points over 5 days.');
    await ticks(12); // Day 1 to Day 3: the crossing
    expect(at('foot')).toBe('1107');
    await ticks(1);
    expect(at('foot')).toBe('1207');
    await ticks(1);
    expect(at('foot')).toBe('1307');
    await ticks(2);
    expect(at('foot')).toBe('1307');
    await ticks(1);
    expect(at('foot')).toBe('1407');
  });

  it('GIVEN rafts outside forest and swamp THEN the preview lays them out day by day and says the timber die is not foreseen', async () => {
    h = await consoleHarness({ dice: DRY, setup: [`@referee /campaign create name:"Rafts" file:"${ground('marchland')}"`, '@referee /campaign assign army:foot user:alice', '@referee /campaign start', '@referee /army edit army:foot hex:0608'].join('\n') });
    const [plan] = await h.run('@alice /move army:foot path:"0708 0808"');
    expect(err(plan)).toBeUndefined();
    expect(plan?.content).toContain('- cross the minor river at 0708 by rafts: 3 day(s) — tomorrow, morning');
    expect(plan?.content).toContain('- 0808 clear: 6 pts — day +4, morning, 6 left');
    expect(plan?.content).toContain('Rafts at 0708: at the end of the first day a die decides whether there is timber (1-4: too little, the day is lost and the order cancelled); the preview shows the crossing as if timber is found.');
  });

  it('GIVEN war machines being assembled THEN the preview waits as the tick waits, then marches at the assembled rate', async () => {
    h = await consoleHarness({ dice: DRY, setup: [`@referee /campaign create name:"Siege" file:"${ground('ackslands')}"`, '@referee /campaign assign army:siege user:alice', '@referee /campaign start'].join('\n') });
    await h.run('@alice /army machines army:siege state:assembled');
    const [plan] = await h.run('@alice /move army:siege path:"1810 1910"');
    expect(err(plan)).toBeUndefined();
    expect(plan?.content).toContain('⚠ Its war machines are being assembled until daybreak of day 2: the order waits until then.');
    // Nothing today (the old preview marched at once, at the disassembled 12 points); then 6 points a day assembled.
    expect(plan?.content).not.toContain('— today');
    expect(plan?.content).toContain('- 1810 clear: 6 pts — tomorrow, afternoon, 0 left');
    expect(plan?.content).toContain('- 1910 clear: 6 pts — day +2, afternoon, 0 left');
    await ticks(5);
    expect(at('siege')).toBe('1710');
    await ticks(1);
    expect(at('siege')).toBe('1810');
    await ticks(4);
    expect(at('siege')).toBe('1910');
  });

  it('GIVEN a march of more than six days THEN the preview says from which day the army marches fatigued and why, and the tick fatigues it then', async () => {
    h = await consoleHarness({ dice: DRY, setup: autumnWar({ grallune: 'alice' }, '@referee /campaign start') });
    const [plan] = await h.run('@alice /move army:grallune to:3030');
    expect(err(plan)).toBeUndefined();
    expect(plan?.content).toContain('⚠ From day +6 the army marches fatigued (its seventh day of marching in a row; a quarter fewer points), as the preview counts, until it rests a full day.');
    // Day 7: too dear a hill for the morning's half of the fatigued points; fatigued by its first step, in the afternoon.
    await ticks(25);
    expect(campaignState(h).armies['grallune']?.status.fatigued).toBe(false);
    await ticks(1);
    expect(campaignState(h).armies['grallune']?.status.fatigued).toBe(true);
    expect(h.dms('alice').some((o) => /is fatigued: marched a seventh day in a row/.test(o.content))).toBe(true);
  });

  it('GIVEN a forced march made today WHEN a march that is not forced is ordered in the evening THEN the preview says it marches fatigued from tomorrow, because of the forced march; ordered tomorrow morning, the rules\' own warning says it', async () => {
    h = await consoleHarness({ dice: DRY, setup: autumnWar({ grallune: 'alice' }, '@referee /campaign start') });
    await h.run('@referee /army edit army:grallune hex:1121', '@alice /move army:grallune path:"1221" forced:true', '!tick', '!tick');
    const [plan] = await h.run('@alice /move army:grallune path:"1222 1223"');
    expect(err(plan)).toBeUndefined();
    expect(plan?.content).toContain('⚠ From tomorrow the army marches fatigued (a forced march the day before; a quarter fewer points), as the preview counts, until it rests a full day.');
    expect(plan?.content).not.toContain('Forced march over several days');
    await h.run('@alice /hold army:grallune', '!tick', '!tick');
    const [morning] = await h.run('@alice /move army:grallune path:"1222 1223"');
    expect(morning?.content).toContain('⚠ Moving now fatigues the army: forced march yesterday and no rest today.');
    expect(morning?.content).not.toContain('marches fatigued (a forced march the day before');
  });

  it('GIVEN ACKS and a march of more than four days THEN the preview says the fifth marching day in seven fatigues the army (no slower)', async () => {
    h = await consoleHarness({ dice: DRY, setup: autumnWar({ grallune: 'alice' }, '@referee /campaign settings profile:acks', '@referee /campaign start') });
    const [plan] = await h.run('@alice /move army:grallune to:3030');
    expect(err(plan)).toBeUndefined();
    expect(plan?.content).toContain('⚠ From day +4 the army marches fatigued (more than 4 marching days in 7; no slower on the march under this profile, but it fights fatigued), as the preview counts, until the rest owed is caught up.');
  });
});
