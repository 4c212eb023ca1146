import { DEFAULT_SETTINGS, newContactId } from '../../src/engine/state/index.js';
import { AUTOCOMPLETE, type Script } from './worlds.js';

/*
 * The differential secrecy test's campaign (tests/secrecy/differential.test.ts): contacts, a
 * battle, couriers, ships, undo and exports, in public or fog, under the Valormr or the ACKS
 * profile. Replay plays the same campaign (tests/replay/replay.test.ts): one script, so that what
 * the secrecy test reaches, replay proves too.
 */

/**
 * A campaign in fog with Hadewych (alice) at 1122 and Grallune (bob) at 1121, next to each other:
 * the first tick puts them in contact. The secrecy tests of what a contact's later rounds say
 * (staleButtons, standoffParted) start from it.
 */
export const FOG_CONTACT_SETUP = [
  '@referee /campaign create scenario:valormr name:"Autumn War"',
  '@referee /campaign assign army:hadewych user:alice',
  '@referee /campaign assign army:grallune user:bob',
  '@referee /army edit army:hadewych hex:1122',
  '@referee /army edit army:grallune hex:1121',
  '@referee /campaign settings positions:fog',
  '@referee /campaign start',
].join('\n');

/** Hexes far from every army of the script, where the hidden army may stand (in fog). */
export const FAR_HEXES = ['1708', '1807', '1707', '1509'] as const;

/** The id of the contact of Hadewych and Grallune, made as the first tick plays Day 1, morning (they stand next to each other): c1 in public, derived in fog. */
const battleId = (positions: 'public' | 'fog'): string =>
  newContactId({ settings: { ...DEFAULT_SETTINGS, positions }, nextId: 1, contacts: {}, clock: { day: 1, half: 0 } }, ['hadewych', 'grallune']).id;

/** The tabletop profiles a campaign's battles may be fought on (`/campaign settings tactical:`): how the strategic state reads at the table. */
export const TACTICALS = ['valormr', 'chapter002', 'warlord'] as const;
export type Tactical = (typeof TACTICALS)[number];

/** `manualDice`: commanders roll their contact dice by hand (the referee those of armies nobody commands). `tactical`: the table the battle is fought on. */
export const script = (positions: 'public' | 'fog', profile: 'valormr' | 'acks', manualDice = false, tactical: Tactical = 'valormr'): Script => ({
  setup: [
    '@referee /campaign create scenario:valormr name:"Autumn War"',
    `@referee /campaign settings profile:${profile} commander-books:true${manualDice ? ' manual-dice:contact' : ''}${tactical === 'valormr' ? '' : ` tactical:${tactical}`}`,
    '@referee /campaign assign army:hadewych user:alice',
    '@referee /campaign assign army:grallune user:bob',
    '@referee /campaign assign army:aeskrvald user:carol',
    '@referee /army edit army:hadewych hex:1122',
    '@referee /army edit army:grallune hex:1121',
    // An ally of bob's (the elves are not at war with law) two hexes off, for a courier to reach.
    '@referee /army edit army:elding hex:1119',
    `@referee /campaign settings positions:${positions}`,
    // The worlds part after the start: where the armies stand as the campaign starts is public,
    // fog or not (fog falls again at the start: docs/rulings.md, Fog of war); what is hidden is
    // what becomes of them from then on.
    '@referee /campaign start',
  ],
  play: [
    '@alice /army status', '@bob /army status army:grallune', '@carol /army status',
    // Orders into and through the hexes the hidden army may hold.
    ...FAR_HEXES.map((h) => `@alice /move to:${h}`),
    '@alice /move path:"1022 0922"', '@alice /rest', '@alice /hold',
    '@bob /scouts count:1', '@alice /scouts count:1',
    '@carol /embark vessels:"troopTransport=9,galley=1"', '@carol /sail path:"2303"',
    '@bob /courier send from-army:grallune to-army:aeskrvald message:"Hold the port"',
    // To allies of another side: in fog each rides to where bob last knew it to be.
    '@bob /courier send from-army:grallune to-army:elding message:"Ride with us"',
    '@bob /courier send from-army:grallune to-army:grunnthraesir message:"Ride with us"',
    '@alice /map', '@alice /map view:mine', '@bob /map view:mine', '@carol /map view:mine',
    '!tick',
    '@referee /contact open armies:"hadewych,grallune"',
    '@carol /debark hex:2304', '@carol /sail path:"2304"',
    '@alice /engage', '@bob /engage',
    // With manual dice, alice enters hers (the answer names the rolls still waiting, by id).
    ...(manualDice ? ['@alice /dice enter value:4', '@alice /dice enter value:3'] : []),
    '!tick',
    '@alice /intel', '@bob /intel',
    // Bob's own map once his couriers are on the road: it must draw nothing he cannot know.
    '@bob /map view:mine',
    '@alice /engage', '@bob /engage',
    '@alice /turn status', '@bob /campaign status', '@carol /weather show',
    // Named: in a world with another battle open the referee would be asked which.
    `@referee /battle result contact:${battleId(positions)} losses:"hadewych/first=2, grallune/first=1"`,
    '!tick',
    '@referee /turn undo',
    '@bob /rest',
    '!tick',
    '@alice /dice verify', '@bob /dice log', '@carol /rules topic:weather', '@alice /help',
    '@alice /campaign export format:markdown', '@bob /campaign export format:markdown public:true',
    '@alice /intel', '@carol /intel', '@bob /turn status',
    AUTOCOMPLETE,
  ],
});

