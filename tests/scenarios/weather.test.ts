import { afterEach, describe, expect, it } from 'vitest';
import { allEvents } from '../../src/db/eventRepo.js';
import { campaignState, consoleHarness, type Harness } from './harness.js';

const CREATE = '@referee /campaign create scenario:valormr name:"Autumn War"';
let h: Harness | undefined;
afterEach(() => h?.close());

const weatherOf = (x: Harness) => campaignState(x).weather;

describe('/weather show', () => {
  it('GIVEN the first morning THEN anyone sees clear skies publicly, nothing closed, and no forecast', async () => {
    h = await consoleHarness({ setup: CREATE });
    const [out] = await h.run('@alice /weather show');
    expect(out).toMatchObject({ to: 'reply', user: 'alice' });
    expect(out?.content).toContain('**Weather, Day 1, morning');
    expect(out?.content).toContain('Clear skies.');
    expect(out?.content).toContain('Nothing is closed or slowed.');
    expect(out?.content).toContain('the future is dice');
    expect(out?.data).toMatchObject({ weather: { sky: 'clear', fog: false, wind: 'none', rainLevel: 0 }, closed: [] });
  });

  it('GIVEN hard rain at rain level 3 with fog THEN show lists what is closed and slowed', async () => {
    h = await consoleHarness({ setup: CREATE });
    await h.run('@referee /weather set sky:hardRain fog:true rain-level:3');
    const [out] = await h.run('@bob /weather show');
    expect(out?.content).toContain('Hard rain, fog; rain level 3.');
    expect(out?.content).toContain("Overland move points at 50 % (rain level 3)");
    expect(out?.content).toContain('fords impassable');
    expect(out?.content).toContain('ferries inoperable');
    expect(out?.content).toContain('ports closed to seagoing ships');
    expect((out?.data as { closed: string[] }).closed).toEqual(expect.arrayContaining(['fords impassable', 'ferries inoperable']));
  });

  it('GIVEN no campaign in the channel THEN it says how to create one', async () => {
    h = await consoleHarness();
    const [out] = await h.run('@alice /weather show');
    expect(out).toMatchObject({ to: 'ephemeral', data: { error: 'campaign.none' } });
  });
});

describe('/weather set (referee)', () => {
  it('GIVEN the referee sets the weather THEN it changes, is announced publicly and logged as a public event', async () => {
    h = await consoleHarness({ setup: CREATE });
    const out = await h.run('@referee /weather set sky:cloudy wind:highWinds rain-level:1');
    const reply = out.find((o) => o.to === 'reply');
    expect(reply?.content).toMatch(/^The referee sets the weather: Cloudy, high winds; rain level 1\./);
    expect(reply?.content).toContain('(was: clear skies, rain level 0.)');
    expect(weatherOf(h)).toMatchObject({ sky: 'cloudy', fog: false, wind: 'highWinds', rainLevel: 1 });
    const logged = allEvents(h.app.db, campaignState(h).id).filter((e) => e.type === 'weatherSet');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ audience: 'public', actorUserId: 'referee', data: { after: { sky: 'cloudy', wind: 'highWinds', rainLevel: 1 } } });
  });

  it('GIVEN only one option THEN the rest of the weather is kept', async () => {
    h = await consoleHarness({ setup: CREATE });
    await h.run('@referee /weather set sky:lightRain fog:true');
    await h.run('@referee /weather set rain-level:2');
    expect(weatherOf(h)).toMatchObject({ sky: 'lightRain', fog: true, wind: 'none', rainLevel: 2 });
  });

  it('GIVEN a player THEN it is refused, saying who may', async () => {
    h = await consoleHarness({ setup: CREATE });
    const [out] = await h.run('@bob /weather set sky:hardRain');
    expect(out).toMatchObject({ to: 'ephemeral', data: { error: 'campaign.refereeOnly' } });
    expect(out?.content).toBe('Only the referee can set the weather.');
    expect(weatherOf(h)?.sky).toBe('clear');
  });

  it('GIVEN nothing to set THEN it is refused with an example', async () => {
    h = await consoleHarness({ setup: CREATE });
    const [out] = await h.run('@referee /weather set');
    expect(out).toMatchObject({ to: 'ephemeral', data: { error: 'weather.nothingToSet' } });
    expect(out?.content).toContain('/weather set sky:hardRain rain-level:2');
  });

  it('GIVEN a bad sky or rain level THEN the console refuses it, saying what is accepted', async () => {
    h = await consoleHarness({ setup: CREATE });
    const [sky] = await h.run('@referee /weather set sky:snow');
    expect(sky).toMatchObject({ to: 'ephemeral', data: { error: 'console.badValue' } });
    expect(sky?.content).toContain('clear, cloudy, lightRain, hardRain');
    const [level] = await h.run('@referee /weather set rain-level:7');
    expect(level?.content).toContain('the largest accepted is 6');
  });

  it('GIVEN an override THEN the next tick rolls on from it', async () => {
    h = await consoleHarness({ setup: CREATE });
    await h.run('@referee /campaign start', '@referee /weather set sky:hardRain');
    await h.run('!tick'); // Day 1 morning → afternoon
    await h.run('!tick'); // evening: the day's hard rain is settled: rain level 1
    expect(weatherOf(h)?.rainLevel).toBe(1);
  });
});
