export { rulesReference, RULES_MAX_CHARS } from './rulesReference.js';
export { RULES_TOPICS, findTopic, topicList, type RulesTopic, type TopicAnswer } from './topics.js';
