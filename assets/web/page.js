// The campaign page: reads what the server says this reader may know, draws it with text only
// (never HTML from the data), shows the map in OpenSeadragon, and reloads on the server's events.
(function () {
  'use strict';
  // A person's page is /c/ID (after login); the spectator page /s/ID (public, delayed).
  const kind = location.pathname.split('/')[1] === 's' ? 's' : 'c';
  const id = decodeURIComponent(location.pathname.split('/')[2] || '');
  const base = '/' + kind + '/' + encodeURIComponent(id);
  if (kind === 's') document.body.classList.add('spectator');
  const $ = (sel) => document.getElementById(sel);
  const state = { as: null, day: null, days: [], version: null, mapUrl: null, gone: false };
  let viewer = null;

  // The first paint: a person's page carries its map's first view as an image (first.png, the whole
  // map 800 px wide, fitted as the viewer's home view fits it), asked for while the page is read.
  // The deep-zoom viewer (OpenSeadragon, 350 kB of script) is loaded only after that image is drawn,
  // and takes its place once every tile of its first view is drawn. A page without the image (the
  // spectators') loads the viewer at once, and its first paint is the viewer's first view.
  let firstView = $('first-view');
  function painted(at) { if (!document.body.dataset.painted) document.body.dataset.painted = String(at === undefined ? performance.now() : at); }
  // When the image was put on the screen, as the browser's own timeline tells it (Element Timing),
  // however late this script runs; where the browser cannot tell, when it is decoded.
  const timed = typeof PerformanceObserver === 'function' && (PerformanceObserver.supportedEntryTypes || []).includes('element');
  if (firstView && timed) {
    new PerformanceObserver((list, obs) => {
      for (const e of list.getEntries()) if (e.identifier === 'first-view') { painted(e.renderTime || e.loadTime); obs.disconnect(); }
    }).observe({ type: 'element', buffered: true });
  }
  const firstDrawn = firstView
    ? firstView.decode().then(() => { if (!timed) painted(); }, () => { if (firstView) { firstView.remove(); firstView = null; } })
    : Promise.resolve();
  function dropFirstView() { if (firstView) { firstView.remove(); firstView = null; } }
  let osdLoaded = null;
  function loadViewer() {
    if (!osdLoaded) {
      osdLoaded = new Promise((resolve, reject) => {
        const s = document.createElement('script');
        s.src = '/assets/osd/openseadragon.min.js';
        s.onload = resolve;
        s.onerror = reject;
        document.head.append(s);
      });
    }
    return osdLoaded;
  }
  firstDrawn.then(loadViewer);

  function query(extra) {
    const q = new URLSearchParams();
    if (state.as) q.set('as', state.as);
    if (state.day !== null) q.set('day', String(state.day));
    if (extra) for (const [k, v] of Object.entries(extra)) q.set(k, v);
    const s = q.toString();
    return s ? '?' + s : '';
  }

  // Discord's timestamps (<t:SECONDS:STYLE>) in the reader's own time zone, as Discord shows them.
  const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  function when(seconds, style) {
    const d = new Date(Number(seconds) * 1000);
    if (style === 'R') {
      const mins = Math.round((d.getTime() - Date.now()) / 60000);
      if (Math.abs(mins) < 60) return relative.format(mins, 'minute');
      if (Math.abs(mins) < 48 * 60) return relative.format(Math.round(mins / 60), 'hour');
      return relative.format(Math.round(mins / 1440), 'day');
    }
    if (style === 't' || style === 'T') return d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
    if (style === 'd' || style === 'D') return d.toLocaleDateString(undefined, { dateStyle: 'medium' });
    return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  }
  // A message's markdown as text, read left to right as Discord reads it: a code span (in double
  // backticks, with a space inside each, when it holds a backtick) keeps its text as it stands; an
  // escaped character (a name's, escapeName in src/engine/events/words.ts: "\*\*Big\*\*") is read
  // back as typed ("**Big**"), and is never taken for a mark; bold and underline marks go.
  const MARKS = /`` ?([^]*?) ?``|`([^`]*)`|\\([\\*_~|`[\]<>@#:+-])|\*\*((?:\\[^]|[^\\\n])+?)\*\*|__((?:\\[^]|[^\\\n])+?)__/g;
  function unmarked(text) {
    return text.replace(MARKS, (_m, spaced, code, escaped, bold, under) => spaced ?? code ?? escaped ?? unmarked(bold ?? under));
  }

  // A message as the page shows it: Discord's timestamps in the reader's time, and what the message
  // makes bold or underlines (a card's headings: "**March**", "**Where**: 1222") strong, the rest of
  // its markdown read as `unmarked` reads it. Built as elements and text nodes: never HTML from the data.
  function rich(text) {
    const s = String(text).replace(/<t:(\d{1,12})(?::([tTdDfFR]))?>/g, (_m, sec, style) => when(sec, style));
    const out = document.createDocumentFragment();
    let at = 0;
    for (const m of s.matchAll(MARKS)) {
      const [whole, spaced, code, escaped, bold, under] = m;
      out.append(s.slice(at, m.index));
      out.append(bold !== undefined || under !== undefined ? el('strong', '', unmarked(bold ?? under)) : spaced ?? code ?? escaped);
      at = m.index + whole.length;
    }
    out.append(s.slice(at));
    return out;
  }

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function fill(node, items, make, emptyText) {
    node.replaceChildren();
    if (items.length === 0) node.append(el('li', 'empty', emptyText));
    for (const it of items) node.append(make(it));
  }

  function showGone() {
    state.gone = true;
    $('banner').hidden = false;
    $('banner').textContent = 'This page is no longer yours to see: the campaign was deleted, or you no longer command in it. Run /web again in a campaign\'s channel.';
    for (const s of ['armies', 'intel', 'chronicle']) $(s).replaceChildren();
    $('inbox').textContent = '';
    if (viewer) viewer.close();
    document.body.dataset.state = 'gone';
  }

  function render(d) {
    document.title = d.campaign.name + ' · Valormr';
    $('campaign').textContent = d.campaign.name;
    const viewing = d.viewing.as ? ' · viewing as ' + d.viewing.armies.join(', ') : d.referee ? ' · referee: everything' : d.spectator ? ' · spectators' : '';
    $('when').textContent = [d.campaign.time, d.campaign.weather, d.spectator ? '' : d.campaign.status].filter(Boolean).join(' · ') + (d.campaign.fog ? ' · fog of war' : '') + viewing;
    $('banner').hidden = d.campaign.status === 'running' && !d.spectator;
    if (d.campaign.status !== 'running') $('banner').textContent = 'The campaign is ' + d.campaign.status + '.';
    if (d.spectator) {
      $('banner').textContent = !d.spectator.shown
        ? 'The spectators\' view starts ' + d.spectator.behind + ' half period' + (d.spectator.behind === 1 ? '' : 's') + ' after the first one is played.'
        : d.spectator.behind === 0 ? 'The public view: what the campaign\'s channel was shown, up to the latest half period.'
          : 'The public view, ' + d.spectator.behind + ' half period' + (d.spectator.behind === 1 ? '' : 's') + ' behind the campaign: what its channel was shown then, nothing newer.';
    }
    const sel = $('view-as');
    $('view-as-label').hidden = !d.referee;
    if (d.referee && sel.options.length !== d.viewAs.length + 1) {
      sel.replaceChildren(el('option', '', 'Everything (referee)'));
      sel.options[0].value = '';
      for (const a of d.viewAs) { const o = el('option', '', a.name); o.value = a.id; sel.append(o); }
    }
    sel.value = state.as || '';
    state.days = d.days;
    $('day-label').textContent = state.day === null ? 'Now: ' + d.campaign.time : 'End of day ' + state.day;
    const i = state.day === null ? d.days.length : d.days.indexOf(state.day);
    $('day-prev').disabled = i <= 0;
    $('day-next').disabled = state.day === null;
    $('day-now').disabled = state.day === null;
    const armies = $('armies');
    armies.replaceChildren();
    if (d.armies.length === 0) armies.append(el('p', 'empty', d.referee ? 'Choose an army in "View as" to see its status as its commander does.' : 'No army.'));
    for (const a of d.armies) { const p = el('div', 'army'); p.append(rich(a.text)); p.dataset.army = a.id; armies.append(p); }
    // The referee's own page has no estimates of its own: they are each army's ("View as").
    const intelEmpty = d.referee && !d.viewing.as ? 'Each army\'s estimates are on its page: choose it in "View as".' : 'No estimate received yet.';
    fill($('intel'), d.intel, (t) => { const li = el('li'); li.append(rich(t)); return li; }, intelEmpty);
    $('inbox-section').hidden = d.inbox === null;
    $('inbox').replaceChildren(d.inbox === null ? '' : rich(d.inbox));
    fill($('chronicle'), [...d.chronicle].reverse(), (l) => {
      const li = el('li');
      li.append(el('span', 'when', l.time));
      if (l.to !== 'everyone') li.append(el('span', 'to', '(to ' + l.to + ')'));
      li.append(rich(l.text));
      return li;
    }, 'Nothing yet.');
  }

  // The map as deep-zoom tiles: map.json gives the pyramid's size, tile/L/X/Y.png each square (the
  // first paint needs only the small levels; the 3,200 px level is drawn when someone zooms that far).
  // data-map-url names the whole picture of the view shown (map.png), which the tiles are cut from.
  // `pyramid` is map.json's answer, asked for together with page.json (one round trip, not two).
  async function showMap(version, pyramid) {
    const q = query(state.day === null ? { v: version } : undefined);
    const url = base + '/map.png' + q;
    if (url === state.mapUrl) return;
    state.mapUrl = url;
    document.body.dataset.map = 'loading';
    // The first view shows now's own view: another day or army hides it at once.
    if (state.day !== null || state.as) dropFirstView();
    const res = await pyramid;
    if (url !== state.mapUrl) return; // a newer view was asked for meanwhile
    if (!res.ok) { document.body.dataset.map = 'failed'; return; }
    const p = await res.json();
    try { await firstDrawn.then(loadViewer); } catch { document.body.dataset.map = 'failed'; return; }
    if (url !== state.mapUrl) return;
    if (!viewer) {
      viewer = OpenSeadragon({
        // The canvas drawer: OpenSeadragon's WebGL one, where WebGL is software-drawn (no GPU, as
        // in a headless browser or an old phone), took seconds of the main thread per frame.
        // The navigator (a thumbnail of the whole map) only where there is room for it: on a phone
        // the whole map already fills the width, and the thumbnail covered its south-east and legend.
        element: $('map'), prefixUrl: '/assets/osd/images/', showNavigator: !window.matchMedia('(max-width: 600px)').matches, navigatorPosition: 'BOTTOM_RIGHT', drawer: 'canvas',
        maxZoomPixelRatio: 3, visibilityRatio: 0.5, gestureSettingsTouch: { pinchRotate: false }, crossOriginPolicy: false,
      });
      viewer.addHandler('open', () => {
        document.body.dataset.map = 'open';
        document.body.dataset.mapUrl = state.mapUrl;
        // First paint: every tile of the first view drawn.
        const item = viewer.world.getItemAt(0);
        const loaded = (e) => {
          if (!e.fullyLoaded) return;
          if (!firstView) painted();
          document.body.dataset.deepZoom = String(performance.now());
          dropFirstView();
          item.removeHandler('fully-loaded-change', loaded);
        };
        if (item) item.addHandler('fully-loaded-change', loaded);
      });
      // How many screen pixels one pixel of the map picture takes (1: its native size, where every hex id reads).
      const zoomed = () => {
        const item = viewer.world.getItemAt(0);
        if (item) document.body.dataset.zoom = String(item.viewportToImageZoom(viewer.viewport.getZoom(true)));
      };
      viewer.addHandler('zoom', zoomed);
      viewer.addHandler('animation-finish', zoomed);
      viewer.addHandler('open-failed', () => { document.body.dataset.map = 'failed'; });
    }
    viewer.open({
      width: p.width, height: p.height, tileSize: p.tileSize, tileOverlap: 0, minLevel: p.minLevel, maxLevel: p.maxLevel,
      getTileUrl: (level, x, y) => base + '/tile/' + level + '/' + x + '/' + y + '.png' + q,
    });
  }

  // Each load is numbered: an answer to an older one (the day before's, when "Day before" was
  // clicked twice and its answer came last) is dropped, not drawn over the newer one's
  // (counted in data-dropped, which the browser test reads).
  let loads = 0;
  function dropped() { document.body.dataset.dropped = String(Number(document.body.dataset.dropped || 0) + 1); return true; }
  async function load() {
    if (state.gone) return;
    const mine = ++loads;
    const q = query();
    const asked = { credentials: 'same-origin', cache: 'no-store' };
    // The map's pyramid is asked for at once, beside the page's data (spectators before their first half period get a 404: no map).
    const pyramid = fetch(base + '/map.json' + q, asked);
    pyramid.catch(() => undefined);
    const res = await fetch(base + '/page.json' + q, asked);
    if (mine !== loads && dropped()) return;
    if (res.status === 404) {
      // The day or army asked for is no longer there (an undo took the day away): back to now.
      if (state.day !== null || state.as) { state.day = null; state.as = null; return load(); }
      return showGone();
    }
    if (!res.ok) { $('banner').hidden = false; $('banner').textContent = 'The page could not be loaded; it will try again at the next update.'; return; }
    const d = await res.json();
    if (mine !== loads && dropped()) return;
    state.version = d.version;
    render(d);
    if (!d.spectator || d.spectator.shown) showMap(d.version, pyramid);
    else document.body.dataset.map = 'none';
    document.body.dataset.version = d.version;
    document.body.dataset.state = 'ready';
  }

  $('day-prev').addEventListener('click', () => {
    const i = state.day === null ? state.days.length : state.days.indexOf(state.day);
    if (i > 0) { state.day = state.days[i - 1]; load(); }
  });
  $('day-next').addEventListener('click', () => {
    const i = state.days.indexOf(state.day);
    state.day = i >= 0 && i < state.days.length - 1 ? state.days[i + 1] : null;
    load();
  });
  $('day-now').addEventListener('click', () => { state.day = null; load(); });
  $('view-as').addEventListener('change', (e) => { state.as = e.target.value || null; load(); });

  // Live updates, asked for once the page has its data: the stream's hello names the version the
  // server sees now, and a page that loaded an older one (a tick in between) loads again.
  function listen() {
    const events = new EventSource(base + '/events');
    events.addEventListener('hello', (e) => { const v = JSON.parse(e.data); if (v !== null && v !== state.version && state.day === null && !state.as) load(); });
    events.addEventListener('update', () => load());
    events.addEventListener('gone', () => { events.close(); showGone(); });
  }
  load().then(listen, listen);
})();
