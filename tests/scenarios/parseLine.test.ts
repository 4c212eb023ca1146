import { describe, expect, it } from 'vitest';
import { parseLine, tokenize } from '../../src/console/parseLine.js';

describe('console line syntax', () => {
  it('reads user, command, subcommand and options, keeping quoted values whole', () => {
    expect(parseLine('@referee /campaign create scenario:valormr name:"Autumn War"')).toEqual({
      kind: 'command', user: 'referee', command: 'campaign', words: ['create'], options: { scenario: 'valormr', name: 'Autumn War' },
    });
    expect(parseLine('@alice /move army:hadewych path:"0712 0713 0813"')).toMatchObject({ options: { path: '0712 0713 0813' } });
  });

  it('understands comments, blanks, !tick with a count and !now', () => {
    expect(parseLine('# note').kind).toBe('comment');
    expect(parseLine('   ').kind).toBe('blank');
    expect(parseLine('!tick')).toEqual({ kind: 'tick', count: 1 });
    expect(parseLine('!tick 4')).toEqual({ kind: 'tick', count: 4 });
    expect(parseLine('!now 2026-11-22T18:00Z')).toEqual({ kind: 'now', iso: '2026-11-22T18:00Z' });
  });

  it('explains malformed lines', () => {
    expect(parseLine('!tick 0')).toMatchObject({ kind: 'error' });
    expect(parseLine('!now soon')).toMatchObject({ kind: 'error' });
    expect(parseLine('@alice move')).toMatchObject({ kind: 'error', message: expect.stringContaining('slash command') });
    expect(parseLine('@alice /x name:"open')).toMatchObject({ kind: 'error', message: expect.stringContaining('quote') });
  });

  it('handles escaped quotes and empty quoted values', () => {
    expect(tokenize('a:"say \\"hi\\"" b:""')).toEqual(['a:say "hi"', 'b:']);
  });
});
