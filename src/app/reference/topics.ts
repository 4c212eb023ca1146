import type { CampaignSettings } from '../../engine/state/index.js';
import { contact, deployment, disengagement, scouts, size, terrainCards } from './contactTopics.js';
import { crossings, moveRates, rest, terrain, vessels, type TopicAnswer } from './movementTopics.js';
import { profile } from './profileTopic.js';
import { weather } from './weatherTopic.js';

export type { TopicAnswer } from './movementTopics.js';

export interface RulesTopic {
  readonly id: string;
  /** Shown in the slash command's choices and the topic list. */
  readonly title: string;
  readonly render: (settings: CampaignSettings, inCampaign: boolean) => TopicAnswer;
}

/** The topics of /rules, in the order they are listed. */
export const RULES_TOPICS: readonly RulesTopic[] = [
  { id: 'move-rates', title: 'Move rates by class and vessel', render: (s) => moveRates(s) },
  { id: 'terrain', title: 'Terrain costs, roads, formed and night limits', render: (s) => terrain(s) },
  { id: 'crossings', title: 'River crossings', render: (s) => crossings(s) },
  { id: 'rest', title: 'Rest, forced march, fatigue, stragglers', render: (s) => rest(s) },
  { id: 'weather', title: 'Weather table, fog and wind, rain level', render: (s) => weather(s) },
  { id: 'scouts', title: 'Scout table', render: () => scouts() },
  { id: 'contact', title: 'Contact modifiers and contact table', render: () => contact() },
  { id: 'size', title: 'Size estimation table', render: () => size() },
  { id: 'disengagement', title: 'Disengagement modifiers and losses', render: () => disengagement() },
  { id: 'deployment', title: 'Deployment dice, schedule, baselines', render: (s, c) => deployment(s, c) },
  { id: 'terrain-cards', title: 'Terrain card deck', render: () => terrainCards() },
  { id: 'vessels', title: 'Vessels: capacity, cost, waters', render: () => vessels() },
  { id: 'profile', title: 'The campaign\'s movement and tactical profiles', render: (s) => profile(s) },
];

export function findTopic(text: string): RulesTopic | undefined {
  const wanted = text.trim().toLowerCase().replace(/^\//, '').replace(/[\s_]+/g, '-');
  return RULES_TOPICS.find((t) => t.id === wanted);
}

/** The list of topics, one a line. */
export function topicList(): string {
  return RULES_TOPICS.map((t) => `- \`${t.id}\`: ${t.title}`).join('\n');
}
