import { describe, expect, it } from 'vitest';
import { MapCache } from '../../src/web/mapCache.js';

/** The page's pictures are served from cache after their first render (issue 28: each image request after the first costs no render). */
describe('the web page\'s picture cache', () => {
  const counting = () => {
    let renders = 0;
    return { render: (tag: string) => () => { renders += 1; return Promise.resolve(Buffer.from(tag)); }, renders: () => renders };
  };

  it('GIVEN a picture rendered once WHEN it is asked for again (and by two requests at once) THEN it is not rendered again', async () => {
    const cache = new MapCache(4);
    const c = counting();
    expect((await cache.get('alice|now|v1', c.render('a'))).toString()).toBe('a');
    expect((await cache.get('alice|now|v1', c.render('b'))).toString()).toBe('a');
    const [x, y] = await Promise.all([cache.get('bob|now|v1', c.render('c')), cache.get('bob|now|v1', c.render('d'))]);
    expect([x.toString(), y.toString()]).toEqual(['c', 'c']);
    expect(c.renders()).toBe(2);
  });

  it('GIVEN a full cache WHEN a new picture comes THEN the least recently used one is dropped, and a failed render is not kept', async () => {
    const cache = new MapCache(2);
    const c = counting();
    await cache.get('a', c.render('a'));
    await cache.get('b', c.render('b'));
    await cache.get('a', c.render('a2')); // a is now the most recent
    await cache.get('c', c.render('c')); // drops b
    expect((await cache.get('a', c.render('a3'))).toString()).toBe('a');
    expect((await cache.get('b', c.render('b2'))).toString()).toBe('b2');
    await expect(cache.get('x', () => Promise.reject(new Error('render failed')))).rejects.toThrow('render failed');
    await Promise.resolve();
    expect((await cache.get('x', c.render('x'))).toString()).toBe('x');
  });
});
