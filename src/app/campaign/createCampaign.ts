import { randomUUID } from 'node:crypto';
import { firstPeriod } from '../../engine/dice/index.js';
import { newCampaign } from '../../engine/campaign/index.js';
import type { ScenarioDoc } from '../../engine/scenario/index.js';
import { formatGameTime } from '../../engine/clock/index.js';
import { scenarioPhrase } from '../format.js';
import { escapeName, PUBLIC } from '../../engine/events/index.js';
import { requireChannelPermissions, type Actor } from '../actor.js';
import type { App } from '../app.js';
import { UserError } from '../errors.js';
import { firstCommitments } from '../dice/seeds.js';
import { ephemeral, reply, type Reply } from '../messages.js';
import { deliver, OPEN } from '../deliveries/audience.js';
import { insertNewCampaign } from '../insertCampaign.js';
import { loadShippedScenario, parseScenarioText, shippedScenarioIds } from '../scenarios.js';

export interface CreateCampaignInput {
  readonly name: string | undefined;
  /** A shipped scenario id, e.g. "valormr". */
  readonly scenario?: string | undefined;
  /** Or an uploaded scenario file. */
  readonly file?: { readonly name: string; readonly text: string } | undefined;
}

/** Creates a campaign in the caller's channel; the caller becomes its referee. */
export function createCampaign(app: App, actor: Actor, input: CreateCampaignInput): Reply[] {
  const name = input.name?.trim();
  if (!name) throw new UserError('campaign.nameMissing', 'Give the campaign a name, e.g. `/campaign create scenario:valormr name:"Autumn War"`.');
  if (name.length > 80) throw new UserError('campaign.nameTooLong', 'A campaign name may be at most 80 characters.');
  requireChannelPermissions(actor, '/campaign create');
  let scenario: ScenarioDoc;
  if (input.file) scenario = parseScenarioText(input.file.text, `file "${input.file.name}"`);
  else if (input.scenario) scenario = loadShippedScenario(input.scenario.trim().toLowerCase());
  else throw new UserError('campaign.scenarioMissing', `Choose a scenario: \`scenario:${shippedScenarioIds()[0] ?? 'valormr'}\` (shipped: ${shippedScenarioIds().join(', ')}) or upload one with \`file:\`.`);

  const now = app.clock.now().toISOString();
  const id = randomUUID().slice(0, 8);
  // The dice of the setup (period 0) and of the first tick (period 1), public and secret: their hashes are published now.
  const dice = firstPeriod(app.dice.newSeed(0), app.dice.newSeed(1), app.dice.newMaster());
  const state = newCampaign({ id, name, scenario, dice });
  const commitments = firstCommitments(dice);
  insertNewCampaign(app, {
    meta: { guildId: actor.guildId, channelId: actor.channelId, ownerUserId: actor.userId, createdAt: now },
    state,
    scenario,
    actorUserId: actor.userId,
    events: [{ type: 'campaignCreated', audience: PUBLIC, text: `Campaign "${escapeName(name)}" created from ${scenarioPhrase(escapeName(scenario.name))}.`, data: { scenarioId: scenario.id } }, ...commitments],
    outbox: deliver({ meta: { ownerUserId: actor.userId }, members: [], state }, 'channel', OPEN, {
      content: [`A new campaign begins here: **${escapeName(name)}** (${escapeName(scenario.name)}). Referee: ${escapeName(actor.userName)}.`, ...commitments.map((e) => e.text)].join('\n'),
      data: { campaignId: id, scenarioId: scenario.id, refereeUserId: actor.userId, commitments: commitments.map((e) => e.data) },
    }),
  });
  const armies = Object.values(state.armies);
  const bySide = Object.values(state.sides).map((s) => `**${s.name}**: ${armies.filter((a) => a.side === s.id).map((a) => `${a.name} (\`${a.id}\`)`).join(', ')}`);
  return [
    reply(`Campaign **${escapeName(name)}** created from **${escapeName(scenario.name)}**. Game time: ${formatGameTime(state.clock)}, ${state.season || 'start'}.\n${bySide.join('\n')}\nNext: assign commanders with \`/campaign assign army:<id> user:<player>\`, then \`/campaign start\`.`,
      { campaignId: id, scenarioId: scenario.id, armies: armies.map((a) => a.id) }),
    ephemeral(`You are the referee of **${escapeName(name)}**. Every die is drawn from seeds committed in advance: the weather's is revealed after its tick, the secret dice's when the campaign ends (you can check those at any time), so anyone can check the dice (\`/dice verify\`, docs/dice.md).${app.dice.testSeed !== undefined ? ` Test seed ${app.dice.testSeed}: these dice are predictable; never use --seed for a real campaign.` : ''}`, app.dice.testSeed !== undefined ? { seed: app.dice.testSeed } : {}),
  ];
}
