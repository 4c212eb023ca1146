import type { Names } from '../events/index.js';
import type { PlanAction, PlanFact, PlanReason } from './planEvents.js';

/** What the army does, in words. */
function actionText(f: PlanFact, names: Names): string {
  const d = f.data;
  const what: Readonly<Record<PlanAction, string>> = {
    march: `marches to ${d.to ?? '?'}`,
    rest: 'rests where it stands',
    keep: 'keeps its order',
    answer: `answers ${d.answer ?? '?'} to contact ${d.contactId ?? '?'}`,
    wait: `does not answer contact ${d.contactId ?? '?'}: yours to answer (the rules' default applies at the deadline)`,
  };
  return `${names.army(d.armyId)} ${what[d.action]}`;
}

/** Why, in words. */
function reasonText(f: PlanFact, names: Names): string {
  const d = f.data;
  const enemy = d.enemy ? names.army(d.enemy) : 'the enemy';
  const odds = d.estimate !== undefined && d.own !== undefined ? ` (its estimate: ${d.estimate} figures against its own ${d.own})` : '';
  const why: Readonly<Record<PlanReason, string>> = {
    hold: 'the plan is to hold',
    arrived: `it has reached ${d.to ?? 'its place'}`,
    heading: `on its way to ${d.to ?? 'its place'}`,
    nextPoint: `the next point of its patrol is ${d.to ?? '?'}`,
    restDue: `rest is owed before it marches on${d.detail ? ` (${d.detail})` : ''}`,
    blocked: `its march is refused by the rules${d.detail ? `: ${d.detail}` : ''}`,
    committed: 'it is committed to a river crossing',
    aboard: 'it is aboard ship',
    noSighting: `its side does not know where ${enemy} is`,
    shadowing: `following ${enemy}, last known at ${d.detail ?? '?'}`,
    watching: `it is within sight of where ${enemy} was last known (${d.detail ?? '?'})`,
    tooClose: `it stands too close to ${enemy} (${d.detail ?? '?'}) and steps back`,
    strongerMet: `it met ${enemy} and estimates it stronger${odds}: it falls back`,
    fellBack: 'it has fallen back and holds there',
    stronger: `its estimate says it is the stronger${odds}`,
    notStronger: `its estimate does not say it is the stronger${odds}`,
    noEstimate: 'it has no estimate of the enemy yet and proceeds to learn one (it may still evade)',
    cannotEvade: 'it is unaware of the enemy and cannot evade',
    refereeDecides: 'its contact policy leaves every contact to the referee',
    refused: `the rules refused the plan's answer${d.detail ? `: ${d.detail}` : ''}`,
  };
  return why[d.reason];
}

/** The referee's line for a plan's decision: "Plan of X (patrol 0712 → 0915): X marches to 0915: the next point ...". */
export function describePlan(f: PlanFact, names: Names): string {
  return `Plan of ${names.army(f.data.armyId)} (${f.data.plan}): ${actionText(f, names)}: ${reasonText(f, names)}.`;
}
