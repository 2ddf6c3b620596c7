/* condraughts: the review of a game on the analysis board (index.html's "Review" panel).
 * cdReview(opts) reads GET /api/games/{id}/review (docs/api.md) and shows it: the move list with
 * each move's mark and score, an evaluation graph (inline SVG, White's view, clipped at +-5 men)
 * and the best move of the position shown. A click on a move or on the graph, or the arrow
 * keys, steps to that position; opts.onView(board, ply) is then told which board to draw
 * (board null: the game's current position). Every text is set with textContent (the moves
 * come from a PDN anyone may write). Plain ES2017, no build step. */
'use strict';

window.cdReview = function cdReview(opts) {
  const SVGNS = 'http://www.w3.org/2000/svg';
  const CLIP = 500; /* the graph's range, hundredths of a man either way */
  const WIN = 30000 - 1000; /* |score| beyond: a win (CD_SCORE_IS_WIN) */
  const $ = (id) => document.getElementById(id);
  const r = {
    es: null,
    start: null,  /* the start event: plies, time, depth, board */
    plies: [],    /* the ply events, in order */
    view: null,   /* the ply shown (0: the start), or null: the game's current position */
  };

  /* A score from the mover's view as text from White's view: "+0.35", or "#+3" (White wins in
   * 3 moves) / "#-3". */
  function whiteText(score, side) {
    const w = side === 'white' ? score : -score;
    if (Math.abs(w) > WIN) {
      const plies = 30000 - Math.abs(w);
      return '#' + (w > 0 ? '+' : '-') + Math.ceil(plies / 2);
    }
    return (w >= 0 ? '+' : '') + (w / 100).toFixed(2);
  }
  function whiteValue(p) { /* the score after ply p, White's view, clipped for the graph */
    const w = p.side === 'white' ? p.after : -p.after;
    return Math.max(-CLIP, Math.min(CLIP, w));
  }

  /* The class of a mark ('?!' dubious, '?' mistake, '??' blunder; '' none). */
  function markClass(mark) {
    return mark === '??' ? 'rv-blunder' : mark === '?' ? 'rv-mistake' : mark === '?!' ? 'rv-dubious' : '';
  }

  function svg(name, attrs, parent) {
    const e = document.createElementNS(SVGNS, name);
    for (const k in attrs) e.setAttribute(k, String(attrs[k]));
    if (parent) parent.appendChild(e);
    return e;
  }

  function renderGraph() {
    const g = $('rv-graph');
    while (g.firstChild) g.removeChild(g.firstChild);
    const n = r.start ? r.start.plies : 0;
    const W = 300, H = 80;
    g.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg('rect', { x: 0, y: 0, width: W, height: H, class: 'rv-bg' }, g);
    svg('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'rv-zero' }, g);
    if (!n) return;
    const x = (k) => (k / n) * W;
    const y = (v) => H / 2 - (v / CLIP) * (H / 2 - 2);
    let pts = `${x(0)},${y(0)}`;
    r.plies.forEach((p) => { pts += ` ${x(p.ply).toFixed(1)},${y(whiteValue(p)).toFixed(1)}`; });
    svg('polyline', { points: pts, class: 'rv-line' }, g);
    r.plies.forEach((p) => {
      if (p.mark) {
        svg('circle', { cx: x(p.ply).toFixed(1), cy: y(whiteValue(p)).toFixed(1), r: 3,
          class: 'rv-dot ' + markClass(p.mark) }, g);
      }
    });
    if (r.view !== null) svg('line', { x1: x(r.view), y1: 0, x2: x(r.view), y2: H, class: 'rv-cursor' }, g);
  }

  function renderList() {
    const ol = $('rv-moves');
    while (ol.firstChild) ol.removeChild(ol.firstChild);
    r.plies.forEach((p) => {
      const li = document.createElement('li');
      li.dataset.ply = String(p.ply);
      li.className = 'rv-move' + (p.mark ? ' ' + markClass(p.mark) : '') +
        (r.view === p.ply ? ' rv-current' : '');
      const mv = document.createElement('span');
      mv.className = 'rv-text';
      mv.textContent = p.move + p.mark;
      const sc = document.createElement('span');
      sc.className = 'rv-score';
      sc.textContent = whiteText(p.after, p.side);
      li.appendChild(mv);
      li.appendChild(sc);
      if (!p.is_best && p.best) {
        const b = document.createElement('span');
        b.className = 'rv-best';
        b.textContent = 'best ' + p.best;
        li.appendChild(b);
      }
      ol.appendChild(li);
    });
  }

  function renderNote() {
    const note = $('rv-note');
    const p = r.view ? r.plies[r.view - 1] : null;
    if (!p) {
      note.textContent = r.view === 0 ? 'The starting position.' : '';
    } else {
      let t = `Ply ${p.ply}: ${p.side === 'white' ? 'White' : 'Black'} played ${p.move}${p.mark} (${whiteText(p.after, p.side)})`;
      if (!p.is_best && p.best) t += `; best was ${p.best} (${whiteText(p.before, p.side)})`;
      note.textContent = t + '.';
    }
    $('app').dataset.reviewView = r.view === null ? '' : String(r.view);
  }

  function renderAll() { renderList(); renderGraph(); renderNote(); }

  /* Show ply k (0: the start; clamped to the plies reviewed so far). */
  function show(k) {
    if (!r.start) return;
    const last = r.plies.length;
    k = Math.max(0, Math.min(last, k));
    r.view = k;
    renderAll();
    const board = k === 0 ? r.start.board : r.plies[k - 1].board;
    opts.onView(board, k);
    const cur = document.querySelector('#rv-moves .rv-current');
    if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: 'nearest' });
  }

  function stop() {
    if (r.es) { r.es.close(); r.es = null; }
    $('btn-rv-start').disabled = false;
    $('btn-rv-stop').disabled = true;
    $('review').classList.remove('running');
  }

  /* Forget the review (a new game on the board). */
  function reset() {
    stop();
    r.start = null;
    r.plies = [];
    r.view = null;
    $('rv-summary').textContent = '';
    $('app').dataset.review = '';
    renderAll();
  }

  function start(gameId) {
    reset();
    const t = parseFloat($('rv-time').value) || 0.3;
    const es = new EventSource(`/api/games/${encodeURIComponent(gameId)}/review?time=${encodeURIComponent(t)}`);
    r.es = es;
    $('review').open = true;
    $('btn-rv-start').disabled = true;
    $('btn-rv-stop').disabled = false;
    $('review').classList.add('running');
    $('app').dataset.review = 'running';
    const parse = (ev) => { try { return JSON.parse(ev.data); } catch (e) { return null; } };
    es.addEventListener('start', (ev) => {
      const d = parse(ev);
      if (!d || r.es !== es) return;
      r.start = d;
      $('rv-summary').textContent = d.depth
        ? `Reviewing ${d.plies} moves to depth ${d.depth}…`
        : `Reviewing ${d.plies} moves at ${d.time} s each…`;
      renderAll();
    });
    es.addEventListener('ply', (ev) => {
      const d = parse(ev);
      if (!d || r.es !== es) return;
      r.plies.push(d);
      renderList();
      renderGraph();
    });
    es.addEventListener('done', (ev) => {
      const d = parse(ev);
      if (!d || r.es !== es) return;
      const side = (name, s) => `${name}: average loss ${(s.average_loss / 100).toFixed(2)} men, ` +
        `${s.dubious} ?!, ${s.mistakes} ?, ${s.blunders} ??`;
      $('rv-summary').textContent = side('White', d.white) + '\n' + side('Black', d.black);
      $('app').dataset.review = 'done';
      stop();
      if (r.view === null) show(0);
    });
    es.addEventListener('error', (ev) => {
      if (r.es !== es) return;
      if (!r.start) opts.onError('The review could not start (the engine may be busy: try again in a moment).');
      stop();
    });
  }

  function bind() {
    $('btn-rv-start').addEventListener('click', () => { const id = opts.gameId(); if (id) start(id); });
    $('btn-rv-stop').addEventListener('click', stop);
    $('rv-moves').addEventListener('click', (ev) => {
      const li = ev.target.closest('li[data-ply]');
      if (li) show(parseInt(li.dataset.ply, 10));
    });
    $('rv-graph').addEventListener('click', (ev) => {
      if (!r.start || !r.start.plies) return;
      const box = $('rv-graph').getBoundingClientRect();
      show(Math.round(((ev.clientX - box.left) / box.width) * r.start.plies));
    });
    document.addEventListener('keydown', (ev) => {
      if (!r.start || ev.target.closest('input, textarea, select')) return;
      const k = r.view === null ? r.plies.length : r.view;
      const to = { ArrowLeft: k - 1, ArrowRight: k + 1, Home: 0, End: r.plies.length }[ev.key];
      if (to === undefined) return;
      ev.preventDefault();
      show(to);
    });
  }

  bind();
  renderGraph();
  return { start, stop, reset, get view() { return r.view; } };
};
