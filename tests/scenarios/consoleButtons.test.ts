import { afterEach, describe, expect, it } from 'vitest';
import type { Harness } from './harness.js';
import { contactHarness, open } from './contactSetup.js';

let h: Harness | undefined;
afterEach(() => h?.close());

describe('buttons on the console', () => {
  it('GIVEN a contact DM with buttons THEN the console prints them as the commands they stand for, and the DM names the commands', async () => {
    h = await contactHarness();
    const id = await open(h, 'hadewych,grallune');
    const dm = h.dms('alice').at(-1)?.content ?? '';
    expect(dm).toMatch(/\n\[\/engage\] \[\/delay\] (\[\/avoid to:\d{4}( \(forced march\))?\] )+\[do nothing\]$/);
    expect(dm).toContain(`**Your answer**: Contact ${id} with Army of Grallune. Answer with a button, or in the campaign channel: \`/engage\` to proceed to the contact phase, \`/delay\`, \`/avoid to:HEX\``);
    // The JSON protocol keeps the buttons themselves too.
    const buttons = (h.dms('alice').at(-1)?.data as { buttons: { label: string; command: string }[] }).buttons;
    expect(buttons[0]).toMatchObject({ label: 'Proceed to the contact phase', command: '/engage' });
    // Typing the command a button stands for does what the button does.
    const [typed] = await h.run('@alice /engage');
    expect(typed?.content).toMatch(/Recorded for Army of Hadewych: proceed to the contact phase/);
    await h.run('@bob /engage');
    const estimate = h.dms('alice').find((o) => o.content.includes('Contact dice'))?.content ?? '';
    expect(estimate).toMatch(/\n\[\/engage\] \[\/evade\]$/);
  });
});
