import type { Dice } from '../dice/index.js';
import { BrokenData } from '../result.js';
import { assaultRegiment, regimentCount, regimentFigures, TROOPS_PER_FIGURE, type Army, type Regiment } from '../forces/index.js';
import { CONTACT_TABLE, SIZE_ESTIMATION_TABLE } from './tables.js';
import type { CompositionLevel, ContactTableRow, Estimate, EstimatedComposition, ForceTruth } from '../state/index.js';

/** The contact table row for a modified contact die (1 or less: unaware; 6 or more: exact). */
export function contactTableRow(modified: number): ContactTableRow {
  const i = Math.min(6, Math.max(1, modified)) - 1;
  const row = CONTACT_TABLE[i];
  if (!row) throw new BrokenData(`no contact table row ${i + 1}`);
  return row;
}

/** Percentage error of a size estimate: 2d6 read in the band's column. @see 001 Size Estimation */
export function sizeError(band: 'pm50' | 'pm25' | 'pm10', twoDice: number): number {
  const i = Math.min(12, Math.max(2, twoDice)) - 2;
  const error = SIZE_ESTIMATION_TABLE[band][i];
  if (error === undefined) throw new BrokenData(`no size estimation for ${twoDice} in ${band}`);
  return error;
}

function companiesOf(r: Regiment | undefined): { troopType: string; figures: number }[] {
  const byType = new Map<string, number>();
  for (const c of r?.companies ?? []) if (c.figures > 0) byType.set(c.troopType, (byType.get(c.troopType) ?? 0) + c.figures);
  return [...byType].map(([troopType, figures]) => ({ troopType, figures }));
}

export function forceTruth(army: Army): ForceTruth {
  const r = assaultRegiment(army);
  const figures = r ? regimentFigures(r) : 0;
  return {
    armyId: army.id,
    ...(r ? { regiment: r.name } : {}),
    figures,
    troops: figures * TROOPS_PER_FIGURE,
    regiments: regimentCount(army),
    companies: companiesOf(r),
    individuals: army.individuals.map((i) => ({ name: i.name, kind: i.kind })),
  };
}

/** The composition as far as the contact table's level allows. @see 001 Contact Dice: Contact Table */
function composition(army: Army, level: CompositionLevel): EstimatedComposition | undefined {
  if (level === 'none') return undefined;
  const r = assaultRegiment(army);
  const basic = [...new Set((r?.companies ?? []).filter((c) => c.figures > 0).map((c) => c.basic))].sort();
  if (level === 'basic') return { basic };
  const companies = companiesOf(r);
  const troopTypes = companies.map((c) => c.troopType);
  if (level === 'types') return { basic, troopTypes };
  const total = companies.reduce((n, c) => n + c.figures, 0);
  const proportions = Object.fromEntries(companies.map((c) => [c.troopType, total > 0 ? Math.round((c.figures / total) * 100) : 0]));
  const otherRegiments = Math.max(0, regimentCount(army) - 1);
  if (level === 'proportions') return { basic, troopTypes, proportions, otherRegiments };
  return { basic, troopTypes, proportions, otherRegiments, companies, individuals: army.individuals.map((i) => ({ name: i.name, kind: i.kind })) };
}

/**
 * One commander's estimate of one opponent: the contact table row of the observer's modified
 * die; for the three estimate rows a 2d6 on the size estimation table in the row's column,
 * applied to the opponent's engaging regiment (rounded to whole figures).
 * @see 001 Contact Dice: Contact Table; Size Estimation
 */
export function estimateOpponent(observerId: string, modifiedDie: number, target: Army, dice: Dice): Estimate {
  const row = contactTableRow(modifiedDie);
  const base = { observerId, targetId: target.id, modifiedDie, awareness: row.awareness, sizeBand: row.size, compositionLevel: row.composition };
  if (row.awareness !== 'estimate') return base;
  const truth = forceTruth(target);
  let sizeRoll: number | undefined;
  let err = 0;
  if (row.size !== 'accurate' && row.size !== 'none') {
    sizeRoll = dice.d6(`size estimate ${observerId} of ${target.id} (1 of 2)`) + dice.d6(`size estimate ${observerId} of ${target.id} (2 of 2)`);
    err = sizeError(row.size, sizeRoll);
  }
  const estimatedFigures = Math.max(0, Math.round(truth.figures * (1 + err / 100)));
  const comp = composition(target, row.composition);
  return {
    ...base,
    ...(sizeRoll !== undefined ? { sizeRoll } : {}),
    sizeErrorPercent: err,
    estimatedFigures,
    estimatedTroops: estimatedFigures * TROOPS_PER_FIGURE,
    ...(comp ? { composition: comp } : {}),
  };
}
