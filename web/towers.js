// Tower draughts (Bashni, Lasca) against the engine: the page towers.html over /api/towers/
// (docs/api.md). Plain JS, no build step.
'use strict';

(function () {
  const SVGNS = 'http://www.w3.org/2000/svg';
  const CELL = 100;
  const MAX_DISCS = 5; // discs drawn per stack; taller stacks show a count
  const $ = (id) => document.getElementById(id);
  const app = $('app');

  const state = {
    game: null,     // the game object from the API
    path: [],       // squares clicked so far for the move being entered
    busy: false,
  };
  window.towers = { state };

  function showError(msg) {
    $('error-text').textContent = msg;
    $('error').hidden = false;
  }
  $('error-close').addEventListener('click', () => { $('error').hidden = true; });

  function setBusy(b, thinking) {
    state.busy = b;
    app.dataset.busy = b ? '1' : '0';
    $('thinking').hidden = !thinking;
    for (const btn of document.querySelectorAll('.btn-new')) btn.disabled = b;
  }

  const api = window.cdApi; /* api.js */

  const squaresOf = (text) => text.split(/[-:x]/);
  const myTurn = () => state.game && !state.game.result && state.game.side === state.game.human;

  // the moves whose square list starts with `path`
  function matching(path) {
    if (!state.game) return [];
    return state.game.moves.filter((m) => {
      const s = squaresOf(m);
      if (s.length < path.length) return false;
      for (let i = 0; i < path.length; i++) if (s[i] !== path[i]) return false;
      return true;
    });
  }

  // ------------------------------------------------------------ drawing

  function el(name, attrs, parent) {
    const e = document.createElementNS(SVGNS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  function drawStack(g, stack, cx, cy) {
    const s = el('g', { class: 'stack' }, g);
    const n = stack.length;
    const shown = Math.min(n, MAX_DISCS);
    const step = 9;
    const base = cy + ((shown - 1) * step) / 2 + 4;
    // bottom first, the top piece last: stack text is top first
    for (let i = shown - 1; i >= 0; i--) {
      const ch = stack[i];
      const colour = ch.toLowerCase() === 'w' ? 'white' : 'black';
      const y = base - (shown - 1 - i) * step;
      el('ellipse', { class: 'disc-side ' + colour, cx, cy: y + 6, rx: 36, ry: 22 }, s);
      el('ellipse', { class: 'disc ' + colour, cx, cy: y, rx: 36, ry: 22 }, s);
      if (i === 0 && (ch === 'W' || ch === 'B')) {
        const t = el('text', { class: 'kingmark on-' + colour, x: cx, y }, s);
        t.textContent = '♛';
      }
    }
    if (n > 3) {
      el('circle', { class: 'countbg', cx: cx + 34, cy: cy - 30, r: 15 }, s);
      const t = el('text', { class: 'count', x: cx + 34, y: cy - 29 }, s);
      t.textContent = String(n);
    }
  }

  function render() {
    const g = state.game;
    const svg = $('board');
    svg.textContent = '';
    if (!g) return;
    const w = g.board.width, h = g.board.height;
    const flip = g.human === 'black';
    svg.setAttribute('viewBox', `0 0 ${w * CELL} ${h * CELL}`);
    const pos = (file, rank) => flip
      ? [(w - 1 - file) * CELL, rank * CELL]
      : [file * CELL, (h - 1 - rank) * CELL];
    const playable = new Set(g.board.squares.map((s) => s.file + ',' + s.rank));
    for (let r = 0; r < h; r++) {
      for (let f = 0; f < w; f++) {
        const [x, y] = pos(f, r);
        el('rect', { class: 'cell ' + (playable.has(f + ',' + r) ? 'dark' : 'light'), x, y, width: CELL, height: CELL }, svg);
      }
    }
    const starts = new Set(myTurn() && !state.busy ? g.moves.map((m) => squaresOf(m)[0]) : []);
    const next = new Set();
    if (state.path.length) {
      for (const m of matching(state.path)) {
        const s = squaresOf(m);
        if (s.length > state.path.length) next.add(s[state.path.length]);
      }
    }
    const last = new Set(g.history.length ? squaresOf(g.history[g.history.length - 1]) : []);
    for (const s of g.board.squares) {
      const [x, y] = pos(s.file, s.rank);
      const cls = ['sq'];
      if (starts.has(s.square)) cls.push('movable');
      if (state.path.indexOf(s.square) >= 0) cls.push('sel');
      if (next.has(s.square)) cls.push('dest');
      if (last.has(s.square)) cls.push('last');
      const sg = el('g', { class: cls.join(' '), 'data-sq': s.square, 'data-stack': s.stack }, svg);
      el('rect', { class: 'overlay', x, y, width: CELL, height: CELL }, sg);
      if (s.stack) drawStack(sg, s.stack, x + CELL / 2, y + CELL / 2);
      if (next.has(s.square) && !s.stack) el('circle', { class: 'dot', cx: x + CELL / 2, cy: y + CELL / 2, r: 12 }, sg);
      sg.addEventListener('click', () => onSquare(s.square));
    }
  }

  function renderSide() {
    const g = state.game;
    app.dataset.ply = g ? String(g.history.length) : '0';
    if (!g) return;
    const name = g.game === 'lasker' ? 'Lasca' : 'Bashni';
    const side = g.side === 'white' ? 'White' : 'Black';
    $('turn').textContent = g.result ? `${name} — game over`
      : `${name} — ${side} to move` + (g.side === g.human ? ' (you)' : ' (engine)');
    const res = $('result');
    if (g.result) {
      res.hidden = false;
      res.textContent = g.result === 'draw'
        ? 'Draw (move limit reached)'
        : `${g.result === 'white' ? 'White' : 'Black'} wins: ${g.result === 'white' ? 'Black' : 'White'} has no legal move` +
          (g.result === g.human ? ' — well played!' : '');
    } else {
      res.hidden = true;
      res.textContent = '';
    }
    const ol = $('movelist');
    ol.textContent = '';
    for (let i = 0; i < g.history.length; i += 2) {
      const li = document.createElement('li');
      const num = document.createElement('span');
      num.className = 'mvnum';
      num.textContent = (i / 2 + 1) + '.';
      li.appendChild(num);
      for (let k = i; k < i + 2; k++) {
        const mv = document.createElement('span');
        mv.className = 'mv' + (k === g.history.length - 1 ? ' lastmv' : '');
        mv.textContent = k < g.history.length ? g.history[k] : '';
        li.appendChild(mv);
      }
      ol.appendChild(li);
    }
    ol.scrollTop = ol.scrollHeight;
    $('legal').textContent = g.moves.join(' ') + (g.moves_truncated ? ' …' : '');
    $('position').textContent = g.position;
    $('game-id').textContent = 'Game ' + g.id + (g.last_engine
      ? ` · engine: ${g.last_engine.move}, depth ${g.last_engine.depth}, score ${g.last_engine.score}` : '');
  }

  function update(g) {
    state.game = g;
    state.path = [];
    if (location.hash !== '#' + g.id) history.replaceState(null, '', '#' + g.id);
    render();
    renderSide();
  }

  // ------------------------------------------------------------ play

  async function engineMove() {
    const g = state.game;
    if (!g || g.result || g.side === g.human) return;
    setBusy(true, true);
    render();
    try {
      update(await api('POST', `/api/towers/games/${g.id}/engine`, { depth: Number($('depth').value) }));
    } catch (e) {
      showError('Engine: ' + e.message);
    } finally {
      setBusy(false, false);
      render();
    }
  }

  async function play(text) {
    const g = state.game;
    setBusy(true, false);
    state.path = [];
    try {
      update(await api('POST', `/api/towers/games/${g.id}/move`, { move: text }));
    } catch (e) {
      showError(`Move ${text}: ${e.message}`);
      setBusy(false, false);
      render();
      return;
    }
    setBusy(false, false);
    await engineMove();
  }

  function onSquare(sq) {
    if (state.busy || !myTurn()) return;
    const path = state.path;
    if (path.length === 1 && path[0] === sq) { // click the selected tower again: deselect
      state.path = [];
      render();
      return;
    }
    const tryPath = path.concat([sq]);
    const m = path.length ? matching(tryPath) : [];
    if (m.length === 0) {
      // the final square of a capture given at once, when only one capture ends there
      const ends = path.length ? matching(path).filter((t) => {
        const s = squaresOf(t);
        return s[s.length - 1] === sq;
      }) : [];
      if (ends.length === 1) {
        play(ends[0]);
        return;
      }
      // else a new selection: one of the towers that can move
      state.path = matching([sq]).length ? [sq] : [];
      render();
      return;
    }
    // a whole move (texts are distinct, and no capture is a prefix of another) or the only match
    const exact = m.filter((t) => squaresOf(t).length === tryPath.length);
    if (exact.length === 1 || m.length === 1) {
      play(exact.length === 1 ? exact[0] : m[0]);
      return;
    }
    state.path = tryPath;
    render();
  }

  async function newGame(game) {
    $('error').hidden = true;
    setBusy(true, false);
    try {
      update(await api('POST', '/api/towers/games', { game, side: $('side').value }));
    } catch (e) {
      showError('New game: ' + e.message);
      setBusy(false, false);
      return;
    }
    setBusy(false, false);
    await engineMove();
  }

  $('btn-new-bashni').addEventListener('click', () => newGame('bashni'));
  $('btn-new-lasker').addEventListener('click', () => newGame('lasker'));

  async function start() {
    const id = location.hash.replace(/^#/, '');
    let resumed = false;
    if (/^[0-9a-f]{1,16}$/.test(id)) {
      try {
        update(await api('GET', `/api/towers/games/${id}`));
        resumed = true;
      } catch (e) { /* gone: start afresh */ }
    }
    if (!resumed) await newGame('lasker');
    else await engineMove();
    app.dataset.ready = '1';
  }
  start();
})();
