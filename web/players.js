/* condraughts: the players' pages. profile.html?name=NAME (an account) or profile.html?id=ID (a
 * browser without an account, by its public id), &before=PLACE or &after=PLACE (the API's
 * `older` and `newer`: a page of games from a place in the list, at the cost of the first page
 * however deep; &page=N as well): the player's ratings and record per variant and its finished
 * games, newest first, each linked to its replay (play.html#GAME) and its opponent's profile. leaderboard.html?variant=V&page=N: the accounts by rating. The data is
 * docs/api.md's "Players". Plain ES2017, no build step. */
'use strict';

(function () {
  const $ = (id) => document.getElementById(id);
  const api = window.cdApi; /* api.js */
  const args = new URLSearchParams(location.search);
  const page = Math.max(1, parseInt(args.get('page') || '1', 10) || 1);

  function showError(msg) { $('error-text').textContent = msg; $('error').hidden = false; }
  function cap(s) { return s ? s.charAt(0).toUpperCase() + s.slice(1) : s; }

  /* The address of a player's profile: {name, account, id} as the API gives it. */
  function profileUrl(p) {
    return p.account ? 'profile.html?name=' + encodeURIComponent(p.name)
      : 'profile.html?id=' + encodeURIComponent(p.id);
  }
  function playerLink(p) {
    const a = document.createElement('a');
    a.href = profileUrl(p);
    a.textContent = p.name || 'Anonymous';
    if (!p.account) a.title = 'A player without an account';
    return a;
  }
  function cell(tr, content) {
    const td = document.createElement('td');
    if (typeof content === 'string' || typeof content === 'number') td.textContent = String(content);
    else if (content) td.appendChild(content);
    tr.appendChild(td);
    return td;
  }
  /* A number, with its column's name for a phone (where the table's head is not shown). */
  function numCell(tr, content, label) {
    const td = cell(tr, content);
    td.className = 'num';
    td.dataset.label = label;
    return td;
  }
  function ratingText(r) { return r.rating === null ? '–' : r.rating + (r.provisional ? '?' : ''); }

  /* The pager: links to the pages before and after `n` of `pages`. */
  function pager(n, pages, base) {
    const go = (k) => { const q = new URLSearchParams(base); q.set('page', String(k)); return '?' + q; };
    $('prev').hidden = n <= 1;
    $('prev').href = go(n - 1);
    $('next').hidden = n >= pages;
    $('next').href = go(n + 1);
    $('page-text').textContent = pages > 1 ? 'Page ' + n + ' of ' + pages : '';
    $('pager').hidden = pages <= 1;
  }

  function dateText(ms) {
    const d = new Date(ms);
    return d.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' }) + ' ' +
      d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  }

  /* The profile's pager: links to the newer and the older games (the API's places, null: none). */
  function gamesPager(p, base) {
    const go = (k, v) => { const q = new URLSearchParams(base); q.set(k, v); return '?' + q; };
    $('prev').hidden = !p.newer;
    $('prev').href = p.newer ? go('after', p.newer) : '';
    $('next').hidden = !p.older;
    $('next').href = p.older ? go('before', p.older) : '';
    $('page-text').textContent = p.page && p.pages > 1 ? 'Page ' + p.page + ' of ' + p.pages : '';
    $('pager').hidden = !p.newer && !p.older;
  }

  /* The rating graph of `variant`: GET api/players/PLAYER/ratings, the rating after each of the
   * latest rated games, one step a game, oldest on the left. */
  const SVGNS = 'http://www.w3.org/2000/svg';
  async function showGraph(path, variant) {
    const h = await api('GET', path + '/ratings?variant=' + encodeURIComponent(variant));
    const svg = $('graph');
    svg.textContent = '';
    const pts = h.points;
    svg.dataset.points = String(pts.length);
    if (pts.length === 0) {
      $('graph-text').textContent = 'No rated game in ' + cap(variant) + ' yet.';
      return;
    }
    const W = 640, H = 200, L = 44, R = 8, T = 10, B = 10;
    let lo = Math.min(...pts.map((p) => p[1])), hi = Math.max(...pts.map((p) => p[1]));
    const pad = Math.max(10, (hi - lo) * 0.1);
    lo -= pad; hi += pad;
    const x = (i) => pts.length === 1 ? (L + W - R) / 2 : L + (W - L - R) * i / (pts.length - 1);
    const y = (r) => T + (H - T - B) * (hi - r) / (hi - lo);
    const el = (name, attrs, text) => {
      const e = document.createElementNS(SVGNS, name);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
      if (text !== undefined) e.textContent = text;
      svg.appendChild(e);
      return e;
    };
    const step = Math.max(10, Math.pow(10, Math.floor(Math.log10((hi - lo) / 2))));
    for (let r = Math.ceil(lo / step) * step; r <= hi; r += step) {
      el('line', { x1: L, x2: W - R, y1: y(r), y2: y(r), class: 'grid' });
      el('text', { x: L - 4, y: y(r) + 4, class: 'axis' }, String(r));
    }
    el('polyline', { points: pts.map((p, i) => x(i).toFixed(1) + ',' + y(p[1]).toFixed(1)).join(' '), class: 'line' });
    const last = pts[pts.length - 1];
    el('circle', { cx: x(pts.length - 1), cy: y(last[1]), r: 3.5, class: 'dot' });
    $('graph-text').textContent = cap(variant) + ': ' + pts.length + (pts.length === 1 ? ' rated game' : ' rated games') +
      (pts.length > 1 ? ', from ' + pts[0][1] + ' to ' + last[1] : ', ' + last[1]) +
      ' (' + dateText(pts[0][0]) + (pts.length > 1 ? ' to ' + dateText(last[0]) : '') + ').';
  }

  async function showProfile() {
    const name = args.get('name'), id = args.get('id');
    if (!name && !id) throw new Error('No player given (profile.html?name=NAME or ?id=ID)');
    const path = name ? 'api/players/' + encodeURIComponent(name) : 'api/players/~' + encodeURIComponent(id);
    const at = args.get('before') ? 'before=' + encodeURIComponent(args.get('before'))
      : args.get('after') ? 'after=' + encodeURIComponent(args.get('after')) : 'page=' + page;
    const p = await api('GET', path + '?' + at);
    const who = p.player.name || 'Anonymous';
    document.title = 'condraughts: ' + who;
    $('title').textContent = who;
    $('who-note').textContent = p.player.account ? 'An account.'
      : 'A player without an account (known by this browser’s id, ' + p.player.id + ').';
    $('totals').textContent = p.games + (p.games === 1 ? ' game: ' : ' games: ') + p.wins + ' won, ' +
      p.draws + ' drawn, ' + p.losses + ' lost';
    const rb = $('records').tBodies[0];
    rb.textContent = '';
    for (const r of p.records) {
      const tr = document.createElement('tr');
      cell(tr, cap(r.variant));
      numCell(tr, ratingText(r), 'Rating');
      numCell(tr, r.games, 'Games');
      numCell(tr, r.wins, 'Won');
      numCell(tr, r.draws, 'Drawn');
      numCell(tr, r.losses, 'Lost');
      const a = document.createElement('a');
      a.href = 'leaderboard.html?variant=' + encodeURIComponent(r.variant);
      a.textContent = 'Leaderboard';
      cell(tr, p.player.account ? a : '');
      rb.appendChild(tr);
    }
    const gb = $('games').tBodies[0];
    gb.textContent = '';
    for (const g of p.list) {
      const tr = document.createElement('tr');
      tr.className = g.result;
      cell(tr, dateText(g.ended));
      cell(tr, cap(g.result) + (g.end ? ' (' + g.end + ')' : '')).className = 'result';
      cell(tr, playerLink(g.opponent));
      cell(tr, cap(g.variant));
      cell(tr, cap(g.colour));
      const ch = g.rating_change;
      cell(tr, g.rating === null ? '–' : g.rating + (ch === null ? '' : ' ' + (ch >= 0 ? '+' : '−') + Math.abs(ch)));
      const a = document.createElement('a');
      a.href = 'play.html#' + g.id;
      a.textContent = 'Replay';
      cell(tr, a);
      gb.appendChild(tr);
    }
    $('games-none').hidden = p.games > 0;
    $('games').hidden = p.list.length === 0;
    gamesPager(p, name ? { name } : { id });
    $('profile').hidden = false;
    const rated = p.records.filter((r) => r.rating !== null).sort((a, b) => b.games - a.games);
    if (rated.length) {
      const sel = $('graph-variant');
      for (const r of rated) {
        const o = document.createElement('option');
        o.value = r.variant;
        o.textContent = cap(r.variant);
        sel.appendChild(o);
      }
      sel.addEventListener('change', () => showGraph(path, sel.value).catch((e) => showError(e.message)));
      $('graph-box').hidden = false;
      await showGraph(path, rated[0].variant);
    }
  }

  async function showBoard() {
    const variants = await api('GET', 'api/variants');
    const sel = $('variant');
    const want = args.get('variant') || 'international';
    for (const v of variants) {
      const o = document.createElement('option');
      o.value = v.name;
      o.textContent = cap(v.name);
      sel.appendChild(o);
    }
    sel.value = want;
    sel.addEventListener('change', () => { location.search = '?variant=' + encodeURIComponent(sel.value); });
    const b = await api('GET', 'api/leaderboard/' + encodeURIComponent(want) + '?page=' + page);
    document.title = 'condraughts: ' + cap(b.variant) + ' leaderboard';
    $('title').textContent = cap(b.variant) + ' leaderboard';
    const tb = $('ranks').tBodies[0];
    tb.textContent = '';
    for (const e of b.list) {
      const tr = document.createElement('tr');
      numCell(tr, e.rank, '#');
      cell(tr, playerLink({ name: e.name, account: true }));
      numCell(tr, ratingText(e), 'Rating');
      numCell(tr, e.games, 'Games');
      tb.appendChild(tr);
    }
    $('ranks-none').hidden = b.total > 0;
    $('ranks').hidden = b.list.length === 0;
    pager(b.page, b.pages, { variant: b.variant });
  }

  const app = $('app');
  (app.dataset.page === 'leaderboard' ? showBoard() : showProfile())
    .catch((e) => showError(e.message))
    .then(() => { app.dataset.ready = '1'; });
}());
