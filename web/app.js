/* condraughts browser front end: plain ES2017, no build step, no dependencies. */
'use strict';

(function () {
  const SVGNS = 'http://www.w3.org/2000/svg';
  const CELL = 100;
  const DEFAULT_LEVEL = 3;

  const $ = (id) => document.getElementById(id);

  const state = {
    variants: [],
    game: null,
    selected: null,      // square number of the selected piece
    candidates: [],      // ambiguous moves waiting for a choice
    hint: null,          // move object to highlight
    flipped: false,
    busy: false,         // a request that changes the game is in flight
    engineToken: 0,      // bumps when the game changes so stale engine replies are dropped
    es: null,            // EventSource of the running analysis
    viewBoard: null,     // the review's board shown instead of the game's (null: the game's)
    viewPly: 0,          // ... after this many moves
  };

  /* ---------- API ---------- */

  const api = window.cdApi; /* api.js */

  /* ---------- messages ---------- */

  function showError(msg) {
    $('error-text').textContent = msg;
    $('error').hidden = false;
  }
  function clearError() { $('error').hidden = true; }

  function setBusy(b, thinking) {
    state.busy = b;
    $('app').dataset.busy = b ? '1' : '0';
    $('thinking').hidden = !thinking;
    $('app').classList.toggle('thinking', !!thinking);
  }

  /* ---------- helpers ---------- */

  function variantInfo(name) {
    return state.variants.find((v) => v.name === name) || null;
  }
  function isAlgebraic(game) {
    const v = variantInfo(game.variant);
    return v ? !!v.algebraic : false;
  }
  function isConstitutional(game) {
    return /constitutional/.test(game.variant) || (game.threats && Object.keys(game.threats).length > 0);
  }
  function engineSide(game) {
    if (game.human === 'both') return null;
    return game.human === 'white' ? 'black' : 'white';
  }
  function enginesTurn(game) {
    return game && game.status === 'ongoing' && engineSide(game) === game.side;
  }
  function humansTurn(game) {
    return game && game.status === 'ongoing' && (game.human === 'both' || game.human === game.side);
  }
  function cap(s) { return s ? s.charAt(0).toUpperCase() + s.slice(1) : s; }
  function fmtScore(s) {
    if (typeof s === 'number') return (s >= 0 ? '+' : '') + (s / 100).toFixed(2);
    return s === undefined || s === null ? '–' : String(s);
  }
  function fmtNum(n) {
    if (typeof n !== 'number') return n === undefined ? '–' : String(n);
    if (n >= 1e9) return (n / 1e9).toFixed(2) + 'G';
    if (n >= 1e6) return (n / 1e6).toFixed(2) + 'M';
    if (n >= 1e4) return (n / 1e3).toFixed(1) + 'k';
    return String(n);
  }

  function squareGeom(game, n) {
    const sq = game.squares[n - 1] && game.squares[n - 1].n === n
      ? game.squares[n - 1] : game.squares.find((s) => s.n === n);
    return sq || null;
  }
  function displayRC(game, row, col) {
    if (state.flipped) return [game.height - 1 - row, game.width - 1 - col];
    return [row, col];
  }
  /* Square number from a move-text token: "32" or "c3". */
  function tokenToSquare(game, tok) {
    if (/^\d+$/.test(tok)) return parseInt(tok, 10);
    const m = /^([a-z])(\d+)$/i.exec(tok);
    if (!m) return null;
    const col = m[1].toLowerCase().charCodeAt(0) - 97;
    const row = game.height - parseInt(m[2], 10);
    const sq = game.squares.find((s) => s.row === row && s.col === col);
    return sq ? sq.n : null;
  }
  function lastMoveSquares(game) {
    if (!game.history || !game.history.length) return [];
    const toks = game.history[game.history.length - 1].split(/[-x:]/).filter(Boolean);
    if (toks.length < 2) return [];
    return [tokenToSquare(game, toks[0]), tokenToSquare(game, toks[toks.length - 1])].filter((x) => x);
  }

  /* ---------- board drawing ---------- */

  function el(name, attrs, parent) {
    const e = document.createElementNS(SVGNS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  function crown(g, cx, cy, dark) {
    // a small three-pointed crown on the piece
    const w = 34, h = 22, x = cx - w / 2, y = cy - h / 2 + 2;
    const d = `M${x},${y + h} L${x},${y + 4} L${x + w * 0.25},${y + h * 0.55} L${cx},${y - 4}` +
      ` L${x + w * 0.75},${y + h * 0.55} L${x + w},${y + 4} L${x + w},${y + h} Z`;
    el('path', { d, class: dark ? 'crown crown-on-black' : 'crown crown-on-white' }, g);
  }

  /* The game as drawn: the review's position when one is shown (no moves to play there). */
  function shownGame() {
    const g = state.game;
    if (!g || !state.viewBoard) return g;
    return Object.assign({}, g, { board: state.viewBoard, history: g.history.slice(0, state.viewPly), moves: [], threats: null });
  }

  function render() {
    const game = shownGame();
    const svg = $('board');
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    if (!game) return;
    const alg = isAlgebraic(game);
    const margin = alg ? 36 : 0;
    const W = game.width * CELL, H = game.height * CELL;
    svg.setAttribute('viewBox', `${-margin} 0 ${W + margin} ${H + margin}`);
    svg.dataset.variant = game.variant;

    // light squares
    const playable = new Set(game.squares.map((s) => s.row * 1000 + s.col));
    for (let r = 0; r < game.height; r++) {
      for (let c = 0; c < game.width; c++) {
        if (playable.has(r * 1000 + c)) continue;
        const [dr, dc] = displayRC(game, r, c);
        el('rect', { x: dc * CELL, y: dr * CELL, width: CELL, height: CELL, class: 'light' }, svg);
      }
    }

    // what to highlight
    const dests = new Set();
    const fromSquares = new Set();
    let pathSquares = new Set(), capSquares = new Set();
    if (humansTurn(game) && !state.busy) {
      for (const m of game.moves) fromSquares.add(m.from);
    }
    if (state.selected !== null) {
      for (const m of game.moves) if (m.from === state.selected) dests.add(m.to);
    }
    const showPaths = state.candidates.length ? state.candidates : [];
    for (const m of showPaths) {
      (m.path || []).forEach((s) => pathSquares.add(s));
      (m.captures || []).forEach((s) => capSquares.add(s));
    }
    const hint = state.hint;
    const hintSquares = new Set();
    if (hint) {
      hintSquares.add(hint.from); hintSquares.add(hint.to);
      (hint.path || []).forEach((s) => hintSquares.add(s));
    }
    const last = new Set(lastMoveSquares(game));
    // squares each king threatens, by the king's colour (the article's "green fields")
    const threatened = new Map();
    if ($('chk-threats').checked && game.threats) {
      for (const k in game.threats) {
        const kp = game.board[Number(k) - 1] || '';
        const by = kp === 'B' || kp === 'b' ? 'threat-b' : 'threat-w';
        (game.threats[k] || []).forEach((s) => {
          const prev = threatened.get(s);
          threatened.set(s, prev && prev !== by ? 'threat-both' : by);
        });
      }
    }

    // Turkish draughts: every cell is a square (game.squares covers the board); shade them as a
    // chequer so the files and ranks read, numbers in a darker ink on the light cells
    const full = game.squares.length === game.width * game.height;
    for (const sq of game.squares) {
      const [dr, dc] = displayRC(game, sq.row, sq.col);
      const lightCell = full && (sq.row + sq.col) % 2 === 0;
      const x = dc * CELL, y = dr * CELL;
      const cls = ['sq'];
      if (last.has(sq.n)) cls.push('last');
      if (threatened.has(sq.n)) cls.push('threat', threatened.get(sq.n));
      if (hintSquares.has(sq.n)) cls.push('hint');
      if (state.selected === sq.n) cls.push('sel');
      if (dests.has(sq.n)) cls.push('dest');
      if (pathSquares.has(sq.n)) cls.push('path');
      if (capSquares.has(sq.n)) cls.push('captured');
      if (fromSquares.has(sq.n)) cls.push('movable');
      const g = el('g', { class: cls.join(' '), 'data-sq': sq.n, transform: `translate(${x},${y})` }, svg);
      el('rect', { x: 0, y: 0, width: CELL, height: CELL, class: lightCell ? 'light' : 'dark' }, g);
      el('rect', { x: 0, y: 0, width: CELL, height: CELL, class: 'overlay' }, g);
      const num = el('text', { x: 5, y: 19, class: 'num' }, g);
      if (lightCell) num.style.fill = '#8a6240';
      num.textContent = sq.n;

      const p = game.board[sq.n - 1] || '';
      if (p) {
        const black = p === 'b' || p === 'B';
        const pc = el('g', { class: 'piece ' + (black ? 'black' : 'white') + (p === 'W' || p === 'B' ? ' king' : ' man') }, g);
        el('circle', { cx: 50, cy: 53, r: 38, class: 'shadow' }, pc);
        el('circle', { cx: 50, cy: 50, r: 38, class: 'body' }, pc);
        el('circle', { cx: 50, cy: 50, r: 27, class: 'ring' }, pc);
        if (p === 'W' || p === 'B') crown(pc, 50, 50, black);
      }
      if (dests.has(sq.n) && !p) el('circle', { cx: 50, cy: 50, r: 13, class: 'dot' }, g);
      if (capSquares.has(sq.n)) {
        el('path', { d: 'M30,30 L70,70 M70,30 L30,70', class: 'xmark' }, g);
      }
    }

    // capture paths as polylines: candidates (ambiguous) or the hint
    const lines = showPaths.length ? showPaths : (hint ? [hint] : []);
    lines.forEach((m, idx) => {
      const pts = [m.from].concat(m.path && m.path.length ? m.path : [m.to]).map((n) => {
        const s = squareGeom(game, n);
        const [dr, dc] = displayRC(game, s.row, s.col);
        return `${dc * CELL + 50},${dr * CELL + 50}`;
      });
      el('polyline', { points: pts.join(' '), class: showPaths.length ? 'pathline c' + (idx % 4) : 'pathline hintline' }, svg);
    });

    if (alg) {
      for (let c = 0; c < game.width; c++) {
        const [, dc] = displayRC(game, 0, c);
        const t = el('text', { x: dc * CELL + 50, y: H + 27, class: 'coord', 'text-anchor': 'middle' }, svg);
        t.textContent = String.fromCharCode(97 + c);
      }
      for (let r = 0; r < game.height; r++) {
        const [dr] = displayRC(game, r, 0);
        const t = el('text', { x: -18, y: dr * CELL + 58, class: 'coord', 'text-anchor': 'middle' }, svg);
        t.textContent = String(game.height - r);
      }
    }
  }

  /* ---------- panels ---------- */

  function renderPanels() {
    const game = state.game;
    const app = $('app');
    if (!game) return;
    app.dataset.ply = String(game.history.length);
    app.dataset.status = game.status;
    app.dataset.side = game.side;

    let turn = `${game.title || game.variant} — ${cap(game.side)} to move`;
    if (game.human !== 'both') turn += humansTurn(game) ? ' (you)' : (game.status === 'ongoing' ? ' (engine)' : '');
    $('turn').textContent = game.status === 'ongoing' ? turn : (game.title || game.variant);

    const res = $('result');
    if (game.status !== 'ongoing') {
      res.hidden = false;
      res.textContent = cap(game.status) + (game.result ? ` (${game.result})` : '') + (game.reason ? ' — ' + game.reason : '');
    } else {
      res.hidden = true;
    }
    const eg = $('egtb');
    eg.textContent = egtbText(game.egtb);
    eg.hidden = !eg.textContent;
    eg.dataset.value = game.egtb && game.egtb.value ? game.egtb.value : '';

    // move list: numbered pairs; game may start with Black (or from a FEN with Black to move)
    const ol = $('movelist');
    ol.innerHTML = '';
    const firstSide = startingSide(game);
    let num = startingMoveNumber(game);
    const variantFirst = variantFirstSide(game);
    let li = null;
    game.history.forEach((mv, i) => {
      const side = (i % 2 === 0) ? firstSide : (firstSide === 'white' ? 'black' : 'white');
      if (side === variantFirst || i === 0) {
        li = document.createElement('li');
        const n = document.createElement('span');
        n.className = 'mvnum';
        n.textContent = num + '.';
        li.appendChild(n);
        if (side !== variantFirst) {
          const dots = document.createElement('span');
          dots.className = 'mv';
          dots.textContent = '…';
          li.appendChild(dots);
        }
        ol.appendChild(li);
      }
      const s = document.createElement('span');
      s.className = 'mv' + (i === game.history.length - 1 ? ' lastmv' : '');
      s.textContent = mv;
      li.appendChild(s);
      if (side !== variantFirst) num++;
    });
    ol.scrollTop = ol.scrollHeight;

    $('threats-toggle').hidden = !isConstitutional(game);
    $('btn-undo').disabled = state.busy || game.history.length === 0;
    $('btn-hint').disabled = state.busy || !humansTurn(game);
    $('game-id').textContent = 'Game ' + game.id + ' · level ' + game.level + ' · ' + game.fen;
    if (document.activeElement !== $('fen') && !$('fen').dataset.edited) $('fen').value = game.fen;
  }

  // The endgame tablebase verdict ("egtb" of the game object), '' when there is none.
  function egtbText(v) {
    if (!v || typeof v !== 'object') return '';
    if (v.value === 'draw') return 'Tablebase: draw';
    if ((v.value !== 'win' && v.value !== 'loss') || (v.winner !== 'white' && v.winner !== 'black')) return '';
    const n = Number(v.plies);
    const dist = Number.isFinite(n) ? ` in ${n} ${n === 1 ? 'ply' : 'plies'}` : '';
    return `Tablebase: ${cap(v.winner)} wins${dist}`;
  }

  // The side that moves first in the variant's start position (English, pool: Black).
  function variantFirstSide(game) {
    return /^(english|american|checkers|pool)$/.test(game.variant) ? 'black' : 'white';
  }
  // The side to move before the first move of history.
  function startingSide(game) {
    const n = game.history.length;
    if (n % 2 === 0) return game.side;
    return game.side === 'white' ? 'black' : 'white';
  }
  function startingMoveNumber(game) {
    const m = /:F(\d+)/.exec(state.startFen || '');
    return m ? parseInt(m[1], 10) : 1;
  }

  function update(game) {
    const changed = !state.game || state.game.id !== game.id;
    if (changed || state.game.history.length !== game.history.length) {
      review.reset(); /* the review was of another game, or of fewer or more moves */
      state.viewBoard = null;
    }
    state.game = game;
    state.selected = null;
    state.candidates = [];
    state.hint = null;
    $('chooser').hidden = true;
    $('hint-text').textContent = '';
    if (changed) {
      stopAnalysis();
      resetAnalysis();
      if (location.hash.slice(1) !== game.id) history.replaceState(null, '', '#' + game.id);
      // keep the controls in sync with the game
      if (variantInfo(game.variant)) $('variant').value = game.variant;
      $('human').value = game.human;
      $('level').value = String(game.level);
    }
    render();
    renderPanels();
  }

  /* ---------- game flow ---------- */

  async function guarded(fn) {
    clearError();
    try {
      await fn();
    } catch (e) {
      showError(e.message || String(e));
    }
  }

  async function newGame(fen) {
    const body = { variant: $('variant').value, human: $('human').value, level: parseInt($('level').value, 10) };
    if (fen) body.fen = fen;
    await guarded(async () => {
      state.engineToken++;
      setBusy(true, false);
      try {
        const g = await api('POST', '/api/games', body);
        state.startFen = fen || '';
        state.flipped = g.human === 'black';
        update(g);
      } finally {
        setBusy(false, false);
      }
      renderAll();
      maybeEngine();
    });
  }

  async function loadGame(id) {
    await guarded(async () => {
      const g = await api('GET', '/api/games/' + encodeURIComponent(id));
      state.flipped = g.human === 'black';
      state.startFen = '';
      update(g);
      maybeEngine();
    });
  }

  function renderAll() { render(); renderPanels(); }

  async function playMove(m) {
    const game = state.game;
    state.selected = null;
    state.candidates = [];
    $('chooser').hidden = true;
    stopAnalysis();
    await guarded(async () => {
      setBusy(true, false);
      renderAll();
      let g;
      try {
        // the move text can be shared by ambiguous captures: then send the Hub form
        // (from, to and the captured squares), which names exactly one move
        const unique = game.moves.filter((x) => x.text === m.text).length === 1;
        g = await api('POST', `/api/games/${game.id}/move`, { move: unique || !m.hub ? m.text : m.hub });
      } finally {
        setBusy(false, false);
      }
      update(g);
      maybeEngine();
    });
    renderAll();
  }

  async function maybeEngine() {
    const game = state.game;
    if (!enginesTurn(game) || state.busy) return;
    const token = ++state.engineToken;
    await guarded(async () => {
      setBusy(true, true);
      renderAll();
      let g;
      try {
        g = await api('POST', `/api/games/${game.id}/engine`);
      } finally {
        if (token === state.engineToken) setBusy(false, false);
      }
      if (token !== state.engineToken) return;
      update(g);
      if (g.last_engine) {
        const le = g.last_engine;
        $('hint-text').textContent = le.book
          ? `Engine played ${le.move} · opening book · score ${fmtScore(le.score)}`
          : `Engine played ${le.move} · score ${fmtScore(le.score)} · depth ${le.depth}` +
            (le.time !== undefined ? ` · ${Number(le.time).toFixed(2)} s` : '');
      }
      maybeEngine();
    });
    renderAll();
  }

  async function undo() {
    const game = state.game;
    if (!game || !game.history.length) return;
    let plies = 1;
    if (game.human !== 'both') {
      // take back to the human's turn: your move and the engine's reply
      plies = game.side === game.human ? 2 : 1;
      if (game.status !== 'ongoing' && game.side !== game.human) plies = 1;
    }
    plies = Math.min(plies, game.history.length);
    state.engineToken++;
    stopAnalysis();
    await guarded(async () => {
      setBusy(true, false);
      let g;
      try {
        g = await api('POST', `/api/games/${game.id}/undo`, { plies });
      } finally {
        setBusy(false, false);
      }
      update(g);
      maybeEngine();
    });
    renderAll();
  }

  async function hint() {
    const game = state.game;
    if (!humansTurn(game) || state.busy) return;
    await guarded(async () => {
      setBusy(true, true);
      renderAll();
      let h;
      try {
        h = await api('POST', `/api/games/${game.id}/hint`);
      } finally {
        setBusy(false, false);
      }
      if (state.game !== game) return;
      const m = game.moves.find((x) => x.text === h.move || x.hub === h.move) || null;
      state.hint = m;
      $('hint-text').textContent = `Hint: ${h.move}` + (h.score !== undefined ? ` (score ${fmtScore(h.score)})` : '');
    });
    renderAll();
  }

  /* ---------- clicks on the board ---------- */

  function onBoardClick(ev) {
    const g = ev.target.closest('[data-sq]');
    const game = state.game;
    if (!g || !game || state.busy || state.viewBoard || !humansTurn(game)) return;
    const n = parseInt(g.getAttribute('data-sq'), 10);

    // choosing among ambiguous captures: clicking a square on some paths narrows the choice
    if (state.candidates.length) {
      const left = state.candidates.filter((m) =>
        (m.path || []).slice(0, -1).indexOf(n) >= 0 || (m.captures || []).indexOf(n) >= 0);
      if (left.length === 1) { playMove(left[0]); return; }
      if (left.length > 1 && left.length < state.candidates.length) {
        state.candidates = left; showChooser(); render(); return;
      }
      if (left.length === 0 && n !== state.selected && game.moves.some((m) => m.from === n)) {
        state.candidates = []; $('chooser').hidden = true; // fall through: select another piece
      } else {
        return;
      }
    }

    if (state.selected !== null) {
      const matching = game.moves.filter((m) => m.from === state.selected && m.to === n);
      if (matching.length === 1) { playMove(matching[0]); return; }
      if (matching.length > 1) {
        state.candidates = matching;
        showChooser();
        render();
        return;
      }
    }
    if (game.moves.some((m) => m.from === n)) {
      state.selected = state.selected === n ? null : n;
    } else {
      state.selected = null;
    }
    state.hint = null;
    render();
  }

  function showChooser() {
    const list = $('chooser-list');
    list.innerHTML = '';
    for (const [idx, m] of state.candidates.entries()) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'choice c' + (idx % 4);
      b.textContent = m.text + (m.captures && m.captures.length ? '  (takes ' + m.captures.join(', ') + ')' : '');
      b.addEventListener('click', () => playMove(m));
      b.addEventListener('mouseenter', () => { state.hint = m; render(); });
      b.addEventListener('mouseleave', () => { state.hint = null; render(); });
      list.appendChild(b);
    }
    $('chooser').hidden = false;
  }

  /* ---------- analysis (SSE) ---------- */

  function resetAnalysis() {
    for (const id of ['an-depth', 'an-score', 'an-nodes', 'an-nps', 'an-time-used', 'an-best']) $(id).textContent = '–';
    $('an-pv').textContent = '';
  }

  function startAnalysis() {
    const game = state.game;
    if (!game) return;
    stopAnalysis();
    resetAnalysis();
    clearError();
    const t = parseFloat($('an-time').value) || 5;
    const es = new EventSource(`/api/games/${game.id}/analyse?time=${encodeURIComponent(t)}`);
    state.es = es;
    $('btn-an-start').disabled = true;
    $('btn-an-stop').disabled = false;
    $('analysis').classList.add('running');
    es.addEventListener('info', (ev) => {
      let d;
      try { d = JSON.parse(ev.data); } catch (e) { return; }
      $('an-depth').textContent = d.depth;
      $('an-score').textContent = fmtScore(d.score);
      $('an-nodes').textContent = fmtNum(d.nodes);
      $('an-nps').textContent = fmtNum(d.nps);
      $('an-time-used').textContent = d.time !== undefined ? Number(d.time).toFixed(2) + ' s' : '–';
      const pv = d.pv || [];
      if (pv.length) $('an-best').textContent = pv[0];
      $('an-pv').textContent = pv.join(' ');
    });
    es.addEventListener('done', (ev) => {
      try {
        const d = JSON.parse(ev.data);
        if (d.move) $('an-best').textContent = d.move;
      } catch (e) { /* ignore */ }
      stopAnalysis();
    });
    es.addEventListener('error', (ev) => {
      // an "error" event carrying data is a server message; otherwise the connection dropped
      if (state.es !== es) return;
      if (ev.data) {
        try { showError(JSON.parse(ev.data).error || ev.data); } catch (e) { showError(ev.data); }
      } else if (es.readyState !== EventSource.CLOSED && $('an-depth').textContent === '–') {
        showError('Analysis connection failed');
      }
      stopAnalysis();
    });
  }

  function stopAnalysis() {
    if (state.es) {
      state.es.close();
      state.es = null;
    }
    $('btn-an-start').disabled = false;
    $('btn-an-stop').disabled = true;
    $('analysis').classList.remove('running');
  }

  /* ---------- PDN ---------- */

  async function exportPdn() {
    const game = state.game;
    if (!game) return '';
    let text = '';
    await guarded(async () => {
      text = await api('GET', `/api/games/${game.id}/pdn`);
      if (typeof text !== 'string') text = JSON.stringify(text);
      $('pdn').value = text;
    });
    return text;
  }

  async function downloadPdn() {
    const text = await exportPdn();
    if (!text) return;
    const blob = new Blob([text], { type: 'application/x-chess-pdn' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `condraughts-${state.game.variant}-${state.game.id}.pdn`;
    document.body.appendChild(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }

  async function importPdn() {
    const pdn = $('pdn').value;
    if (!pdn.trim()) { showError('Paste a PDN game into the text box first.'); return; }
    await guarded(async () => {
      state.engineToken++;
      /* the variant chosen above applies when the PDN has no GameType/Variant tag */
      const g = await api('POST', '/api/games/import',
        { pdn, variant: $('variant').value, human: $('human').value });
      const m = /\[FEN\s+"([^"]*)"\]/.exec(pdn);
      state.startFen = m ? m[1] : '';
      state.flipped = g.human === 'black';
      update(g);
      /* read, with a warning from the reader (e.g. an ambiguous capture resolved) */
      if (g.warning) showError('Imported, with a warning: ' + g.warning);
      maybeEngine();
    });
  }

  /* ---------- start-up ---------- */

  function bind() {
    $('board').addEventListener('click', onBoardClick);
    $('btn-new').addEventListener('click', () => newGame());
    $('btn-flip').addEventListener('click', () => { state.flipped = !state.flipped; render(); });
    $('btn-undo').addEventListener('click', undo);
    $('btn-hint').addEventListener('click', hint);
    $('chk-threats').addEventListener('change', render);
    $('btn-an-start').addEventListener('click', startAnalysis);
    $('btn-an-stop').addEventListener('click', stopAnalysis);
    $('btn-fen').addEventListener('click', () => {
      const fen = $('fen').value.trim();
      if (!fen) { showError('Type a FEN position first, e.g. W:W31-50:B1-20'); return; }
      $('fen').dataset.edited = '';
      newGame(fen);
    });
    $('fen').addEventListener('input', () => { $('fen').dataset.edited = '1'; });
    $('btn-fen-copy').addEventListener('click', () => {
      if (state.game) { $('fen').value = state.game.fen; $('fen').dataset.edited = ''; }
    });
    $('btn-import').addEventListener('click', importPdn);
    $('btn-export').addEventListener('click', exportPdn);
    $('btn-download').addEventListener('click', downloadPdn);
    $('error-close').addEventListener('click', clearError);
    $('chooser-cancel').addEventListener('click', () => {
      state.candidates = []; state.selected = null; $('chooser').hidden = true; render();
    });
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        state.candidates = []; state.selected = null; $('chooser').hidden = true; render();
      }
    });
    window.addEventListener('hashchange', () => {
      const id = location.hash.slice(1);
      if (id && (!state.game || state.game.id !== id)) loadGame(id);
    });
  }

  async function init() {
    for (let l = 1; l <= 10; l++) {
      const o = document.createElement('option');
      o.value = String(l);
      o.textContent = String(l);
      $('level').appendChild(o);
    }
    $('level').value = String(DEFAULT_LEVEL);
    bind();
    try {
      state.variants = await api('GET', '/api/variants');
    } catch (e) {
      showError('Could not load the variants: ' + e.message);
      return;
    }
    const sel = $('variant');
    for (const v of state.variants) {
      const o = document.createElement('option');
      o.value = v.name;
      o.textContent = v.title ? `${v.title}` : v.name;
      sel.appendChild(o);
    }
    sel.value = variantInfo('international') ? 'international' : (state.variants[0] && state.variants[0].name);
    const id = location.hash.slice(1);
    if (id) {
      await loadGame(id);
      if (state.game && new URLSearchParams(location.search).has('review')) review.start(state.game.id);
      if (state.game) {
        $('app').dataset.readyMs = String(Math.round(performance.now()));
        $('app').dataset.ready = '1';
        return;
      }
      clearError();
      showError('Game ' + id + ' was not found; a new game was started.');
      const msg = $('error-text').textContent;
      await newGame();
      showError(msg);
    } else {
      await newGame();
    }
    $('app').dataset.readyMs = String(Math.round(performance.now()));
    $('app').dataset.ready = '1';
  }

  const review = window.cdReview({
    gameId: () => state.game && state.game.id,
    onView: (board, ply) => { state.viewBoard = board; state.viewPly = ply; state.selected = null; render(); },
    onError: showError,
  });

  // exposed for tests and the console
  window.condraughts = { state };

  init();
})();
