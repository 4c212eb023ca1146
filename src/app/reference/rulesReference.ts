import { echo } from '../../engine/events/index.js';
import { findCampaignInChannel } from '../../db/campaignRepo.js';
import { type CampaignSettings, DEFAULT_SETTINGS } from '../../engine/state/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { UserError } from '../errors.js';
import { ephemeral, type Reply } from '../messages.js';
import { readCampaign } from '../unitOfWork.js';
import { findTopic, RULES_TOPICS, topicList } from './topics.js';

/** Topics rendered with the channel's campaign settings (its profiles, its flying and drought settings). */
const CAMPAIGN_TOPICS: readonly string[] = ['move-rates', 'rest', 'deployment', 'terrain', 'crossings', 'weather', 'profile'];

/** Discord's limit is 2,000 characters; keep a margin. */
const RULES_MAX_CHARS = 1900;

/** The settings of the campaign in the actor's channel (read-only), or undefined without one. */
function campaignSettings(app: App, actor: Actor): CampaignSettings | undefined {
  if (!findCampaignInChannel(app.db, actor.guildId, actor.channelId)) return undefined;
  return readCampaign(app, { actor }, (tx) => tx.state.settings);
}

/**
 * `/rules [topic]` (everyone, private): a quick reference of one table of the rules, rendered
 * from the engine's own data so it cannot drift from what the bot applies. Works in any channel;
 * the deployment baselines use the channel's campaign settings when there is a campaign, else
 * the defaults. Without a topic, lists the topics.
 */
export function rulesReference(app: App, actor: Actor, topic: string | undefined): Reply[] {
  if (topic === undefined || topic.trim() === '') {
    const text = ['**Rules reference**: `/rules topic:<topic>`', topicList()].join('\n');
    return [ephemeral(text, { topics: RULES_TOPICS.map((t) => ({ id: t.id, title: t.title })) })];
  }
  const found = findTopic(topic);
  if (!found) {
    throw new UserError('rules.unknownTopic', `There is no rules topic ${echo(topic)}. Topics:\n${topicList()}`, { topics: RULES_TOPICS.map((t) => t.id) });
  }
  const settings = CAMPAIGN_TOPICS.includes(found.id) ? campaignSettings(app, actor) : undefined;
  const answer = found.render(settings ?? DEFAULT_SETTINGS, settings !== undefined);
  const [first = '', ...more] = answerParts(answer.text, RULES_MAX_CHARS);
  return [ephemeral(first, { topic: found.id, ...answer.data }), ...more.map((text) => ephemeral(text, { topic: found.id }))];
}

/**
 * A topic's text in messages within Discord's limit, none of it cut off: whole sections (a line
 * opening with a bold heading, such as the tactical profile after the movement profile) where they
 * fit together, else whole lines; a single line longer than a message is cut between messages.
 */
function answerParts(text: string, max: number): string[] {
  const parts: string[] = [];
  let current = '';
  const add = (piece: string): void => {
    if (current.length > 0 && current.length + 1 + piece.length > max) {
      parts.push(current);
      current = '';
    }
    current = current.length > 0 ? `${current}\n${piece}` : piece;
  };
  for (const section of text.split(/\n(?=\*\*)/)) {
    if (section.length <= max) add(section);
    else for (const line of section.split('\n')) for (let i = 0; i < Math.max(1, line.length); i += max) add(line.slice(i, i + max));
  }
  parts.push(current);
  return parts;
}
