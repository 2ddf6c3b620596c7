/*
 * module.c -- the Python module condraughts over the library (CPython's C API; docs/python.md):
 * Board (a cd_game: positions, legal moves, push/pop, FEN, result), Move, perft, variants,
 * Engine (cd_search with the learned weights built in, as the program has them) and Tablebase
 * (cd_egtb). Searches, perft and table builds and probes run without the GIL, each on its own
 * copy of the position or game, so a board may change meanwhile.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdlib.h>
#include <string.h>

#include "condraughts.h"
#include "eval_io.h"

#define ERRLEN 256

static PyObject *IllegalMoveError;
static cd_eval *builtin_eval; /* the weights built into the module, shared by every Engine */

/* ---------------------------------------------------------------- Move */

/* A legal move of the position it was made in, with its text in the variant's notation. */
typedef struct {
    PyObject_HEAD cd_move move;
    int from, to;
    PyObject *text;     /* str */
    PyObject *captures; /* tuple of square numbers */
} MoveObject;

static PyTypeObject MoveType;

/* A new Move for m, legal in pos. */
static PyObject *move_new(const cd_position *pos, const cd_move *m)
{
    char buf[512];
    int caps[64];
    cd_move_to_text(pos, m, -1, buf, sizeof buf);
    int n = cd_move_captures(pos, m, caps, 64);
    MoveObject *o = PyObject_New(MoveObject, &MoveType);
    if (!o)
        return NULL;
    o->move = *m;
    o->from = cd_move_from(pos, m);
    o->to = cd_move_to(pos, m);
    o->text = PyUnicode_FromString(buf);
    o->captures = PyTuple_New(n < 64 ? n : 64);
    if (!o->text || !o->captures) {
        Py_XDECREF(o->text);
        Py_XDECREF(o->captures);
        o->text = o->captures = NULL;
        Py_DECREF(o);
        return NULL;
    }
    for (int i = 0; i < n && i < 64; i++)
        PyTuple_SET_ITEM(o->captures, i, PyLong_FromLong(caps[i]));
    return (PyObject *)o;
}

static void move_dealloc(MoveObject *o)
{
    Py_XDECREF(o->text);
    Py_XDECREF(o->captures);
    PyObject_Free(o);
}

static PyObject *move_str(MoveObject *o)
{
    Py_INCREF(o->text);
    return o->text;
}

static PyObject *move_repr(MoveObject *o)
{
    return PyUnicode_FromFormat("Move('%U')", o->text);
}

static PyObject *move_richcompare(PyObject *a, PyObject *b, int op)
{
    if (!PyObject_TypeCheck(b, &MoveType) || (op != Py_EQ && op != Py_NE))
        Py_RETURN_NOTIMPLEMENTED;
    int eq = cd_move_equal(&((MoveObject *)a)->move, &((MoveObject *)b)->move);
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static Py_hash_t move_hash(MoveObject *o)
{
    Py_hash_t h = (Py_hash_t)(o->move.captured ^ ((uint64_t)o->move.captured_hi << 48) ^
                              ((uint64_t)o->move.from << 8) ^ o->move.to);
    return h == -1 ? -2 : h;
}

static PyObject *move_get_from(MoveObject *o, void *unused)
{
    (void)unused;
    return PyLong_FromLong(o->from);
}

static PyObject *move_get_to(MoveObject *o, void *unused)
{
    (void)unused;
    return PyLong_FromLong(o->to);
}

static PyObject *move_get_captures(MoveObject *o, void *unused)
{
    (void)unused;
    Py_INCREF(o->captures);
    return o->captures;
}

static PyObject *move_get_promotes(MoveObject *o, void *unused)
{
    (void)unused;
    return PyBool_FromLong(o->move.flags & CD_MOVE_PROMOTES);
}

static PyGetSetDef move_getset[] = {
    {"from_square", (getter)move_get_from, NULL, "square number the piece leaves", NULL},
    {"to_square", (getter)move_get_to, NULL, "square number the piece ends on", NULL},
    {"captures", (getter)move_get_captures, NULL, "captured square numbers, ascending", NULL},
    {"promotes", (getter)move_get_promotes, NULL, "a man becomes a king", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject MoveType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "condraughts.Move",
    .tp_basicsize = sizeof(MoveObject),
    .tp_dealloc = (destructor)move_dealloc,
    .tp_repr = (reprfunc)move_repr,
    .tp_str = (reprfunc)move_str,
    .tp_hash = (hashfunc)move_hash,
    .tp_richcompare = move_richcompare,
    .tp_getset = move_getset,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A legal move of the position it came from (Board.legal_moves, Board.parse_move); "
              "str() is its text in the variant's notation.",
};

/* ---------------------------------------------------------------- Board */

typedef struct {
    PyObject_HEAD cd_game *game;
    const cd_rules *rules;
} BoardObject;

static PyTypeObject BoardType;

static const cd_position *board_pos(BoardObject *b)
{
    return cd_game_position(b->game);
}

/* A new cd_game with b's start, moves and draw rules (the comments and a resignation or
 * agreement are not copied); NULL (a Python error set) on failure. */
static cd_game *game_copy(BoardObject *b)
{
    cd_game *g = cd_game_new(b->rules, cd_game_position_at(b->game, 0));
    if (!g) {
        PyErr_NoMemory();
        return NULL;
    }
    cd_game_set_draw_rules(g, 0);
    for (int i = 0; i < cd_game_ply(b->game); i++)
        if (cd_game_play(g, cd_game_move(b->game, i)) != CD_OK) {
            cd_game_free(g);
            PyErr_SetString(PyExc_RuntimeError, "the board's moves could not be replayed");
            return NULL;
        }
    cd_game_set_draw_rules(g, cd_game_draw_rules(b->game));
    return g;
}

static int board_init(BoardObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"variant", "fen", NULL};
    const char *variant = "international", *fen = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|sz", kwlist, &variant, &fen))
        return -1;
    const cd_rules *r = cd_rules_find(variant);
    if (!r) {
        PyErr_Format(PyExc_ValueError, "unknown variant '%s' (condraughts.variants() lists them)",
                     variant);
        return -1;
    }
    cd_position pos;
    cd_position_start(&pos, r);
    if (fen) {
        char err[ERRLEN];
        if (cd_position_from_fen(&pos, r, fen, err, sizeof err) != CD_OK) {
            PyErr_Format(PyExc_ValueError, "bad FEN '%s' for %s: %s", fen, r->name, err);
            return -1;
        }
    }
    cd_game *g = cd_game_new(r, &pos);
    if (!g) {
        PyErr_NoMemory();
        return -1;
    }
    cd_game_free(self->game);
    self->game = g;
    self->rules = r;
    return 0;
}

/* A board holds a game from the start: one made by Board.__new__ alone is the International
 * start until __init__ says otherwise. */
static PyObject *board_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    (void)args;
    (void)kw;
    BoardObject *self = (BoardObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    self->rules = cd_rules_find("international");
    self->game = cd_game_new(self->rules, NULL);
    if (!self->game) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    return (PyObject *)self;
}

static void board_dealloc(BoardObject *self)
{
    if (self->game)
        cd_game_free(self->game);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The legal moves of pos as a list of Moves. */
static PyObject *moves_list(const cd_position *pos)
{
    cd_movelist *list = malloc(sizeof *list);
    if (!list)
        return PyErr_NoMemory();
    int n = cd_generate(pos, list);
    PyObject *out = PyList_New(n);
    for (int i = 0; out && i < n; i++) {
        PyObject *m = move_new(pos, &list->moves[i]);
        if (!m)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, i, m);
    }
    free(list);
    return out;
}

static PyObject *board_get_legal_moves(BoardObject *self, void *unused)
{
    (void)unused;
    return moves_list(board_pos(self));
}

static PyObject *board_get_turn(BoardObject *self, void *unused)
{
    (void)unused;
    return PyLong_FromLong(board_pos(self)->side);
}

static PyObject *board_get_variant(BoardObject *self, void *unused)
{
    (void)unused;
    return PyUnicode_FromString(self->rules->name);
}

static PyObject *board_get_move_stack(BoardObject *self, void *unused)
{
    (void)unused;
    int n = cd_game_ply(self->game);
    PyObject *out = PyList_New(n);
    for (int i = 0; out && i < n; i++) {
        PyObject *m = move_new(cd_game_position_at(self->game, i), cd_game_move(self->game, i));
        if (!m)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, i, m);
    }
    return out;
}

static PyObject *board_fen(BoardObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"algebraic", NULL};
    int algebraic = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|p", kwlist, &algebraic))
        return NULL;
    char buf[1024];
    cd_position_to_fen(board_pos(self), algebraic, buf, sizeof buf);
    return PyUnicode_FromString(buf);
}

/* Raise exc with "WHAT (position FEN)"; returns NULL. */
static PyObject *position_error(BoardObject *b, PyObject *exc, const char *what)
{
    char fen[1024];
    cd_position_to_fen(board_pos(b), 0, fen, sizeof fen);
    PyErr_Format(exc, "%s (position %s)", what, fen);
    return NULL;
}

/* The legal move that text names into *m (1), or IllegalMoveError (a ValueError) with the
 * library's reason, which names the move and where it went wrong, and the position (0). */
static int parse_text(BoardObject *self, const char *text, cd_move *m)
{
    char err[ERRLEN] = "";
    cd_result r = cd_move_parse(board_pos(self), text, m, err, sizeof err);
    if (r == CD_OK)
        return 1;
    if (!err[0])
        snprintf(err, sizeof err, "move '%s': %s", text, cd_result_str(r));
    position_error(self, r == CD_ERR_OVERFLOW ? PyExc_MemoryError : IllegalMoveError, err);
    return 0;
}

/* Play m, a move written text, on the board: IllegalMoveError when the game is over or m is not
 * a move of this position. */
static PyObject *play(BoardObject *self, const cd_move *m, const char *text)
{
    char what[ERRLEN];
    cd_status st = cd_game_status(self->game, NULL);
    if (st != CD_ONGOING) {
        snprintf(what, sizeof what, "move '%s': the game is over (%s)", text,
                 cd_status_pdn(self->rules, st));
        return position_error(self, IllegalMoveError, what);
    }
    cd_result r = cd_game_play(self->game, m);
    if (r == CD_OK)
        Py_RETURN_NONE;
    snprintf(what, sizeof what, "move '%s' is not legal here: %s", text,
             r == CD_ERR_OVERFLOW ? "out of memory" : "it belongs to another position");
    return position_error(self, r == CD_ERR_OVERFLOW ? PyExc_MemoryError : IllegalMoveError, what);
}

static PyObject *play_text(BoardObject *self, const char *text)
{
    cd_move m = {0};
    if (cd_game_status(self->game, NULL) == CD_ONGOING && !parse_text(self, text, &m))
        return NULL;
    return play(self, &m, text);
}

static PyObject *board_push(BoardObject *self, PyObject *arg)
{
    if (PyUnicode_Check(arg)) {
        const char *text = PyUnicode_AsUTF8(arg);
        return text ? play_text(self, text) : NULL;
    }
    if (!PyObject_TypeCheck(arg, &MoveType)) {
        PyErr_SetString(PyExc_TypeError, "push() takes a Move or a str");
        return NULL;
    }
    MoveObject *m = (MoveObject *)arg;
    const char *text = PyUnicode_AsUTF8(m->text);
    return text ? play(self, &m->move, text) : NULL;
}

static PyObject *board_push_str(BoardObject *self, PyObject *args)
{
    const char *text;
    if (!PyArg_ParseTuple(args, "s", &text))
        return NULL;
    return play_text(self, text);
}

static PyObject *board_parse_move(BoardObject *self, PyObject *args)
{
    const char *text;
    cd_move m;
    if (!PyArg_ParseTuple(args, "s", &text) || !parse_text(self, text, &m))
        return NULL;
    return move_new(board_pos(self), &m);
}

static PyObject *board_pop(BoardObject *self, PyObject *unused)
{
    (void)unused;
    int ply = cd_game_ply(self->game);
    if (ply == 0) {
        PyErr_SetString(PyExc_IndexError, "pop from empty move stack");
        return NULL;
    }
    PyObject *m = move_new(cd_game_position_at(self->game, ply - 1),
                           cd_game_move(self->game, ply - 1));
    if (m)
        cd_game_undo(self->game);
    return m;
}

static PyObject *board_is_game_over(BoardObject *self, PyObject *unused)
{
    (void)unused;
    return PyBool_FromLong(cd_game_status(self->game, NULL) != CD_ONGOING);
}

static PyObject *board_result(BoardObject *self, PyObject *unused)
{
    (void)unused;
    return PyUnicode_FromString(cd_status_pdn(self->rules, cd_game_status(self->game, NULL)));
}

static PyObject *board_outcome_reason(BoardObject *self, PyObject *unused)
{
    (void)unused;
    cd_reason why;
    if (cd_game_status(self->game, &why) == CD_ONGOING)
        Py_RETURN_NONE;
    return PyUnicode_FromString(cd_reason_str(why));
}

static PyObject *board_copy(BoardObject *self, PyObject *unused)
{
    (void)unused;
    cd_game *g = game_copy(self);
    if (!g)
        return NULL;
    BoardObject *b = PyObject_New(BoardObject, &BoardType);
    if (!b) {
        cd_game_free(g);
        return NULL;
    }
    b->game = g;
    b->rules = self->rules;
    return (PyObject *)b;
}

static PyObject *board_piece_at(BoardObject *self, PyObject *args)
{
    int sq;
    if (!PyArg_ParseTuple(args, "i", &sq))
        return NULL;
    int p = cd_position_piece(board_pos(self), sq);
    if (p < 0) {
        PyErr_Format(PyExc_ValueError, "square %d is not on the %s board (1..%d)", sq,
                     self->rules->name, cd_rules_squares(self->rules));
        return NULL;
    }
    return PyLong_FromLong(p);
}

/* Fill t from a dict of str to str (None: empty); 0 with a Python error on a fault. */
static int tags_from_dict(PyObject *dict, cd_pdn_tags *t)
{
    cd_pdn_tags_init(t);
    if (dict == Py_None)
        return 1;
    if (!PyDict_Check(dict)) {
        PyErr_SetString(PyExc_TypeError, "tags must be a dict of str to str");
        return 0;
    }
    PyObject *key, *value;
    Py_ssize_t i = 0;
    while (PyDict_Next(dict, &i, &key, &value)) {
        const char *k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
        const char *v = PyUnicode_Check(value) ? PyUnicode_AsUTF8(value) : NULL;
        if (!k || !v) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "tags must be a dict of str to str");
            return 0;
        }
        if (cd_pdn_tag_set(t, k, v) != CD_OK) {
            PyErr_Format(PyExc_ValueError, "PDN tag '%s': a bad name, or too long", k);
            return 0;
        }
    }
    return 1;
}

static PyObject *board_pdn(BoardObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"tags", NULL};
    PyObject *dict = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O", kwlist, &dict))
        return NULL;
    cd_pdn_tags *t = malloc(sizeof *t);
    if (!t)
        return PyErr_NoMemory();
    PyObject *out = NULL;
    if (tags_from_dict(dict, t)) {
        size_t need = cd_pdn_write(self->game, t, NULL, 0);
        char *buf = malloc(need + 1);
        if (!buf)
            PyErr_NoMemory();
        else {
            cd_pdn_write(self->game, t, buf, need + 1);
            out = PyUnicode_FromString(buf);
            free(buf);
        }
    }
    free(t);
    return out;
}

static PyObject *board_str(BoardObject *self)
{
    const cd_rules *r = self->rules;
    int w = cd_rules_width(r), h = cd_rules_height(r), n = cd_rules_squares(r);
    char grid[16][16];
    memset(grid, '.', sizeof grid);
    static const char piece[] = "-wbWB";
    for (int sq = 1; sq <= n; sq++) {
        int row = cd_square_row(r, sq), col = cd_square_col(r, sq);
        if (row >= 0 && row < 16 && col >= 0 && col < 16)
            grid[row][col] = piece[cd_position_piece(board_pos(self), sq)];
    }
    char out[16 * 34 + 1];
    size_t k = 0;
    for (int row = 0; row < h && row < 16; row++) {
        for (int col = 0; col < w && col < 16; col++) {
            out[k++] = grid[row][col] == '-' ? '.' : grid[row][col] == '.' ? ' ' : grid[row][col];
            out[k++] = col + 1 < w ? ' ' : '\n';
        }
    }
    out[k] = '\0';
    return PyUnicode_FromString(out);
}

static PyObject *board_repr(BoardObject *self)
{
    char fen[1024];
    cd_position_to_fen(board_pos(self), 0, fen, sizeof fen);
    return PyUnicode_FromFormat("Board(variant='%s', fen='%s')", self->rules->name, fen);
}

static PyGetSetDef board_getset[] = {
    {"legal_moves", (getter)board_get_legal_moves, NULL, "the legal moves (list of Move)", NULL},
    {"turn", (getter)board_get_turn, NULL, "side to move: condraughts.WHITE or BLACK", NULL},
    {"variant", (getter)board_get_variant, NULL, "the variant's name", NULL},
    {"move_stack", (getter)board_get_move_stack, NULL, "the moves played (list of Move)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef board_methods[] = {
    {"fen", (PyCFunction)(void (*)(void))board_fen, METH_VARARGS | METH_KEYWORDS,
     "fen(algebraic=False): the PDN FEN of the position"},
    {"push", (PyCFunction)board_push, METH_O, "push(move): play a Move (or move text)"},
    {"push_str", (PyCFunction)board_push_str, METH_VARARGS,
     "push_str(text): play move text such as '32-28' or '28x19'"},
    {"parse_move", (PyCFunction)board_parse_move, METH_VARARGS,
     "parse_move(text): the legal Move that text names"},
    {"pop", (PyCFunction)board_pop, METH_NOARGS, "take back the last move and return it"},
    {"is_game_over", (PyCFunction)board_is_game_over, METH_NOARGS,
     "whether the game has ended (no move, or a draw rule of the variant)"},
    {"result", (PyCFunction)board_result, METH_NOARGS,
     "PDN result: '2-0', '0-2', '1-1' (8x8: '1-0', '0-1', '1/2-1/2') or '*'"},
    {"outcome_reason", (PyCFunction)board_outcome_reason, METH_NOARGS,
     "why the game ended (e.g. 'no legal moves'), or None"},
    {"copy", (PyCFunction)board_copy, METH_NOARGS, "a copy with the same moves"},
    {"pdn", (PyCFunction)(void (*)(void))board_pdn, METH_VARARGS | METH_KEYWORDS,
     "pdn(tags=None): the game in PDN (tags: a dict such as {'White': 'X'})"},
    {"piece_at", (PyCFunction)board_piece_at, METH_VARARGS,
     "piece_at(square): EMPTY, WHITE_MAN, BLACK_MAN, WHITE_KING or BLACK_KING"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject BoardType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "condraughts.Board",
    .tp_basicsize = sizeof(BoardObject),
    .tp_dealloc = (destructor)board_dealloc,
    .tp_repr = (reprfunc)board_repr,
    .tp_str = (reprfunc)board_str,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Board(variant='international', fen=None): a game from the variant's start or FEN",
    .tp_getset = board_getset,
    .tp_methods = board_methods,
    .tp_init = (initproc)board_init,
    .tp_new = board_new,
};

static int board_check(PyObject *o)
{
    if (PyObject_TypeCheck(o, &BoardType))
        return 1;
    PyErr_SetString(PyExc_TypeError, "expected a condraughts.Board");
    return 0;
}

/* ---------------------------------------------------------------- Engine */

typedef struct {
    PyObject_HEAD cd_engine *engine;
    cd_eval *own_eval; /* weights read from a folder (Engine(weights=DIR)), or NULL */
    PyObject *tables;  /* the Tablebase the search probes (kept alive here), or NULL */
    int busy;          /* a search runs on this engine (without the GIL) */
} EngineObject;

typedef struct {
    PyObject_HEAD cd_egtb *tb;
    const cd_rules *rules;
} TablebaseObject;

static PyTypeObject TablebaseType;

/* The last completed iteration's line, written by the searching thread. */
typedef struct {
    int pvlen;
    cd_move pv[CD_MAX_PLY];
} pv_store;

static void on_info(const cd_search_info *info, void *user)
{
    pv_store *s = user;
    if (info->multipv > 1)
        return;
    s->pvlen = info->pvlen;
    memcpy(s->pv, info->pv, sizeof(cd_move) * (size_t)info->pvlen);
}

static int engine_init(EngineObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"hash_mb", "weights", "threads", NULL};
    Py_ssize_t hash = 0;
    const char *dir = NULL;
    int threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|nzi", kwlist, &hash, &dir, &threads))
        return -1;
    if (hash < 0) {
        PyErr_SetString(PyExc_ValueError, "hash_mb must be 0 (default) or more");
        return -1;
    }
    if (self->engine) {
        PyErr_SetString(PyExc_RuntimeError, "Engine already initialised");
        return -1;
    }
    char err[ERRLEN];
    if (dir) {
        self->own_eval = eval_io_load(dir, 1, err, sizeof err);
        if (!self->own_eval) {
            PyErr_Format(PyExc_ValueError, "weights folder '%s': %s", dir, err);
            return -1;
        }
    }
    self->engine = cd_engine_new((size_t)hash);
    if (!self->engine) {
        PyErr_NoMemory();
        return -1;
    }
    cd_engine_set_eval(self->engine, self->own_eval ? self->own_eval : builtin_eval);
    if (cd_engine_set_option(self->engine, "threads", threads) != CD_OK) {
        PyErr_Format(PyExc_ValueError, "threads %d: not 1 to 64, or out of memory", threads);
        return -1;
    }
    return 0;
}

static void engine_dealloc(EngineObject *self)
{
    if (self->engine)
        cd_engine_free(self->engine);
    cd_eval_free(self->own_eval);
    Py_XDECREF(self->tables);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int engine_ready(EngineObject *self)
{
    if (!self->engine) {
        PyErr_SetString(PyExc_RuntimeError, "Engine not initialised");
        return 0;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "a search is already running on this Engine");
        return 0;
    }
    return 1;
}

/* A list of Moves for the line pv from pos (stops at a move that is not legal). */
static PyObject *pv_list(const cd_position *start, const cd_move *pv, int n)
{
    PyObject *out = PyList_New(0);
    cd_position pos = *start;
    cd_movelist *list = malloc(sizeof *list);
    if (!out || !list) {
        free(list);
        Py_XDECREF(out);
        return PyErr_NoMemory();
    }
    for (int i = 0; i < n; i++) {
        int k, count = cd_generate(&pos, list);
        for (k = 0; k < count && !cd_move_equal(&list->moves[k], &pv[i]); k++)
            ;
        if (k == count)
            break;
        PyObject *m = move_new(&pos, &list->moves[k]);
        if (!m || PyList_Append(out, m) < 0) {
            Py_XDECREF(m);
            Py_DECREF(out);
            free(list);
            return NULL;
        }
        Py_DECREF(m);
        cd_play(&pos, &list->moves[k], &pos);
    }
    free(list);
    return out;
}

static PyObject *engine_analyse(EngineObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"board", "depth", "time", "nodes", NULL};
    PyObject *bo, *depth_o = Py_None, *time_o = Py_None, *nodes_o = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OOO", kwlist, &bo, &depth_o, &time_o, &nodes_o))
        return NULL;
    if (!board_check(bo) || !engine_ready(self))
        return NULL;
    cd_limits lim;
    memset(&lim, 0, sizeof lim);
    if (depth_o != Py_None) {
        long d = PyLong_AsLong(depth_o);
        if (d == -1 && PyErr_Occurred())
            return NULL;
        if (d < 1 || d >= CD_MAX_PLY) {
            PyErr_Format(PyExc_ValueError, "depth %ld: must be 1 to %d", d, CD_MAX_PLY - 1);
            return NULL;
        }
        lim.depth = (int)d;
    }
    if (time_o != Py_None) {
        lim.movetime = PyFloat_AsDouble(time_o);
        if (lim.movetime == -1.0 && PyErr_Occurred())
            return NULL;
        if (!(lim.movetime > 0)) {
            PyErr_SetString(PyExc_ValueError, "time must be more than 0 seconds");
            return NULL;
        }
    }
    if (nodes_o != Py_None) {
        unsigned long long n = PyLong_AsUnsignedLongLong(nodes_o);
        if (PyErr_Occurred())
            return NULL;
        if (n == 0) {
            PyErr_SetString(PyExc_ValueError, "nodes must be more than 0");
            return NULL;
        }
        lim.nodes = n;
    }
    if (!lim.depth && !lim.movetime && !lim.nodes) {
        PyErr_SetString(PyExc_ValueError, "analyse() needs a limit: depth, time or nodes");
        return NULL;
    }
    BoardObject *b = (BoardObject *)bo;
    if (cd_game_status(b->game, NULL) != CD_ONGOING) {
        PyErr_Format(PyExc_ValueError, "the game is over (%s): nothing to search",
                     cd_status_pdn(b->rules, cd_game_status(b->game, NULL)));
        return NULL;
    }
    cd_game *g = game_copy(b);
    if (!g)
        return NULL;
    pv_store *store = calloc(1, sizeof *store);
    if (!store) {
        cd_game_free(g);
        return PyErr_NoMemory();
    }
    cd_search_result res;
    cd_result rc;
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS rc = cd_search(self->engine, g, &lim, on_info, store, &res);
    Py_END_ALLOW_THREADS self->busy = 0;
    PyObject *out = NULL;
    if (rc != CD_OK || !res.has_move) {
        PyErr_Format(PyExc_RuntimeError, "the search failed: %s", cd_result_str(rc));
        goto done;
    }
    const cd_position *pos = cd_game_position(g);
    if (store->pvlen == 0 || !cd_move_equal(&store->pv[0], &res.best)) {
        store->pv[0] = res.best;
        store->pvlen = 1;
    }
    PyObject *pv = pv_list(pos, store->pv, store->pvlen);
    if (!pv)
        goto done;
    PyObject *best = PyList_GET_SIZE(pv) ? PyList_GET_ITEM(pv, 0) : Py_None;
    out = Py_BuildValue("{s:O,s:i,s:O,s:i,s:K,s:d,s:N}", "move", best, "score", res.score, "win",
                        CD_SCORE_IS_WIN(res.score) ? Py_True : Py_False, "depth", res.depth,
                        "nodes", (unsigned long long)res.nodes, "time", res.time, "pv", pv);
done:
    free(store);
    cd_game_free(g);
    return out;
}

static PyObject *engine_stop(EngineObject *self, PyObject *unused)
{
    (void)unused;
    if (self->engine)
        cd_engine_stop(self->engine);
    Py_RETURN_NONE;
}

static PyObject *engine_clear(EngineObject *self, PyObject *unused)
{
    (void)unused;
    if (!engine_ready(self))
        return NULL;
    cd_engine_clear(self->engine);
    Py_RETURN_NONE;
}

static PyObject *engine_set_option(EngineObject *self, PyObject *args)
{
    const char *name;
    int value;
    if (!PyArg_ParseTuple(args, "si", &name, &value))
        return NULL;
    if (!engine_ready(self))
        return NULL;
    if (cd_engine_set_option(self->engine, name, value) != CD_OK) {
        int lo, hi;
        if (cd_engine_option_range(name, &lo, &hi))
            PyErr_Format(PyExc_ValueError, "option '%s': %d is not in %d..%d", name, value, lo, hi);
        else
            PyErr_Format(PyExc_ValueError, "unknown engine option '%s'", name);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *engine_set_tablebase(EngineObject *self, PyObject *arg)
{
    if (arg != Py_None &&
        (!PyObject_TypeCheck(arg, &TablebaseType) || !((TablebaseObject *)arg)->tb)) {
        PyErr_SetString(PyExc_TypeError, "set_tablebase() takes a condraughts.Tablebase or None");
        return NULL;
    }
    if (!engine_ready(self))
        return NULL;
    cd_engine_set_egtb(self->engine, arg == Py_None ? NULL : ((TablebaseObject *)arg)->tb);
    Py_XDECREF(self->tables);
    self->tables = arg == Py_None ? NULL : arg;
    Py_XINCREF(self->tables);
    Py_RETURN_NONE;
}

static PyMethodDef engine_methods[] = {
    {"analyse", (PyCFunction)(void (*)(void))engine_analyse, METH_VARARGS | METH_KEYWORDS,
     "analyse(board, depth=None, time=None, nodes=None): search the board's position; a dict "
     "with move, score (hundredths of a man, side to move's view), win (a won or lost score), "
     "depth, nodes, time and pv"},
    {"stop", (PyCFunction)engine_stop, METH_NOARGS, "stop a running search (from another thread)"},
    {"clear", (PyCFunction)engine_clear, METH_NOARGS, "forget what was learned (new game)"},
    {"set_tablebase", (PyCFunction)engine_set_tablebase, METH_O,
     "set_tablebase(tb): probe the endgame tables of tb in the search (None: none); positions "
     "of another variant are not probed"},
    {"set_option", (PyCFunction)engine_set_option, METH_VARARGS,
     "set_option(name, value): an engine option by name (threads, contempt, ...)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "condraughts.Engine",
    .tp_basicsize = sizeof(EngineObject),
    .tp_dealloc = (destructor)engine_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Engine(hash_mb=0, weights=None, threads=1): the search, with the built-in "
              "learned weights (or those of the folder weights)",
    .tp_methods = engine_methods,
    .tp_init = (initproc)engine_init,
    .tp_new = PyType_GenericNew,
};

/* ---------------------------------------------------------------- Tablebase */

static int tablebase_init(TablebaseObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"dir", "variant", NULL};
    const char *dir, *variant = "international";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s|s", kwlist, &dir, &variant))
        return -1;
    const cd_rules *r = cd_rules_find(variant);
    if (!r) {
        PyErr_Format(PyExc_ValueError, "unknown variant '%s'", variant);
        return -1;
    }
    if (self->tb) {
        PyErr_SetString(PyExc_RuntimeError, "Tablebase already initialised");
        return -1;
    }
    self->tb = cd_egtb_open(r, dir);
    if (!self->tb) {
        PyErr_Format(PyExc_ValueError, "%s cannot have endgame tables", r->name);
        return -1;
    }
    self->rules = r;
    return 0;
}

static void tablebase_dealloc(TablebaseObject *self)
{
    if (self->tb)
        cd_egtb_close(self->tb);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *tablebase_probe(TablebaseObject *self, PyObject *bo)
{
    if (!board_check(bo))
        return NULL;
    if (!self->tb) {
        PyErr_SetString(PyExc_RuntimeError, "Tablebase not initialised");
        return NULL;
    }
    BoardObject *b = (BoardObject *)bo;
    if (b->rules != self->rules) {
        PyErr_Format(PyExc_ValueError, "a %s board probed in %s tables", b->rules->name,
                     self->rules->name);
        return NULL;
    }
    cd_position pos = *board_pos(b);
    int v, dist = 0;
    Py_BEGIN_ALLOW_THREADS v = cd_egtb_probe(self->tb, &pos, &dist);
    Py_END_ALLOW_THREADS if (v == CD_EGTB_UNKNOWN) Py_RETURN_NONE;
    int wdl = v == CD_EGTB_WIN ? 1 : v == CD_EGTB_LOSS ? -1 : 0;
    return Py_BuildValue("(ii)", wdl, v == CD_EGTB_DRAW ? 0 : dist);
}

static PyObject *tablebase_build(TablebaseObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"pieces", "kings_pieces", "threads", NULL};
    int pieces, kings = 0, threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "i|ii", kwlist, &pieces, &kings, &threads))
        return NULL;
    if (!self->tb) {
        PyErr_SetString(PyExc_RuntimeError, "Tablebase not initialised");
        return NULL;
    }
    char err[ERRLEN] = "";
    cd_result r;
    Py_BEGIN_ALLOW_THREADS r = cd_egtb_build(self->tb, pieces, kings, threads, NULL, NULL, err,
                                             sizeof err);
    Py_END_ALLOW_THREADS if (r != CD_OK)
    {
        PyErr_Format(r == CD_ERR_IO ? PyExc_OSError : PyExc_ValueError, "building tables: %s",
                     err[0] ? err : cd_result_str(r));
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *tablebase_error(TablebaseObject *self, PyObject *unused)
{
    (void)unused;
    return PyUnicode_FromString(self->tb ? cd_egtb_error(self->tb) : "");
}

static PyMethodDef tablebase_methods[] = {
    {"probe", (PyCFunction)tablebase_probe, METH_O,
     "probe(board): (wdl, plies) for the side to move -- wdl 1 win, 0 draw, -1 loss, plies to "
     "the end of the game (0 for a draw) -- or None when the position is not in the tables"},
    {"build", (PyCFunction)(void (*)(void))tablebase_build, METH_VARARGS | METH_KEYWORDS,
     "build(pieces, kings_pieces=0, threads=1): build the missing tables into the folder"},
    {"error", (PyCFunction)tablebase_error, METH_NOARGS,
     "the last fault met (a missing or bad table file), or ''"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TablebaseType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "condraughts.Tablebase",
    .tp_basicsize = sizeof(TablebaseObject),
    .tp_dealloc = (destructor)tablebase_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Tablebase(dir, variant='international'): the endgame tables of a folder",
    .tp_methods = tablebase_methods,
    .tp_init = (initproc)tablebase_init,
    .tp_new = PyType_GenericNew,
};

/* ---------------------------------------------------------------- functions */

static PyObject *py_perft(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *bo;
    int depth;
    if (!PyArg_ParseTuple(args, "Oi", &bo, &depth))
        return NULL;
    if (!board_check(bo))
        return NULL;
    if (depth < 0 || depth >= CD_MAX_PLY) {
        PyErr_Format(PyExc_ValueError, "depth %d: must be 0 to %d", depth, CD_MAX_PLY - 1);
        return NULL;
    }
    cd_position pos = *board_pos((BoardObject *)bo);
    uint64_t n;
    Py_BEGIN_ALLOW_THREADS n = cd_perft(&pos, depth);
    Py_END_ALLOW_THREADS return PyLong_FromUnsignedLongLong(n);
}

/* A dict of the tags t. */
static PyObject *tags_to_dict(const cd_pdn_tags *t)
{
    PyObject *d = PyDict_New();
    for (int i = 0; d && i < t->count; i++) {
        PyObject *v = PyUnicode_DecodeUTF8(cd_pdn_tag_value(t, i),
                                           (Py_ssize_t)strlen(cd_pdn_tag_value(t, i)), "replace");
        if (!v || PyDict_SetItemString(d, cd_pdn_tag_name(t, i), v) < 0)
            Py_CLEAR(d);
        Py_XDECREF(v);
    }
    return d;
}

static PyObject *py_read_pdn(PyObject *mod, PyObject *args, PyObject *kw)
{
    (void)mod;
    static char *kwlist[] = {"text", "variant", NULL};
    const char *text, *variant = "international";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s|s", kwlist, &text, &variant))
        return NULL;
    const cd_rules *r = cd_rules_find(variant);
    if (!r) {
        PyErr_Format(PyExc_ValueError, "unknown variant '%s'", variant);
        return NULL;
    }
    cd_pdn_tags *t = malloc(sizeof *t);
    PyObject *out = PyList_New(0);
    if (!t || !out) {
        free(t);
        Py_XDECREF(out);
        return PyErr_NoMemory();
    }
    size_t pos = 0;
    for (;;) {
        char err[ERRLEN] = "";
        cd_game *g = NULL;
        cd_result rc = cd_pdn_read(text, &pos, r, &g, t, err, sizeof err);
        if (rc != CD_OK) {
            PyErr_Format(rc == CD_ERR_OVERFLOW ? PyExc_MemoryError : PyExc_ValueError,
                         "PDN game %zd: %s", PyList_GET_SIZE(out) + 1,
                         err[0] ? err : cd_result_str(rc));
            Py_CLEAR(out);
            break;
        }
        if (!g)
            break;
        BoardObject *b = PyObject_New(BoardObject, &BoardType);
        if (!b) {
            cd_game_free(g);
            Py_CLEAR(out);
            break;
        }
        b->game = g;
        b->rules = cd_game_position(g)->rules;
        PyObject *tags = tags_to_dict(t);
        PyObject *item = tags ? Py_BuildValue("(NN)", (PyObject *)b, tags) : NULL;
        if (!item) {
            Py_DECREF(b);
            Py_XDECREF(tags);
        }
        if (!item || PyList_Append(out, item) < 0) {
            Py_XDECREF(item);
            Py_CLEAR(out);
            break;
        }
        Py_DECREF(item);
    }
    free(t);
    return out;
}

static PyObject *py_variants(PyObject *mod, PyObject *unused)
{
    (void)mod;
    (void)unused;
    PyObject *out = PyList_New(0);
    for (int i = 0; out && cd_rules_at(i); i++) {
        PyObject *s = PyUnicode_FromString(cd_rules_at(i)->name);
        if (!s || PyList_Append(out, s) < 0)
            Py_CLEAR(out);
        Py_XDECREF(s);
    }
    return out;
}

static PyObject *py_engine_options(PyObject *mod, PyObject *unused)
{
    (void)mod;
    (void)unused;
    PyObject *out = PyList_New(0);
    cd_option_info info;
    for (int i = 0; out && cd_engine_option_at(i, &info); i++) {
        PyObject *o = Py_BuildValue("{s:s,s:i,s:i,s:i,s:s}", "name", info.name, "default", info.def,
                                    "min", info.lo, "max", info.hi, "about", info.about);
        if (!o || PyList_Append(out, o) < 0)
            Py_CLEAR(out);
        Py_XDECREF(o);
    }
    return out;
}

static PyMethodDef module_methods[] = {
    {"perft", py_perft, METH_VARARGS, "perft(board, depth): leaf nodes of the move tree"},
    {"variants", py_variants, METH_NOARGS, "the names of the variants"},
    {"read_pdn", (PyCFunction)(void (*)(void))py_read_pdn, METH_VARARGS | METH_KEYWORDS,
     "read_pdn(text, variant='international'): the games of PDN text, a list of (Board, tags "
     "dict); the variant of a game without GameType or Variant tags"},
    {"engine_options", py_engine_options, METH_NOARGS,
     "the Engine's options (set_option): name, default, min, max and meaning of each"},
    {NULL, NULL, 0, NULL},
};

static void module_free(void *mod)
{
    (void)mod;
    cd_eval_free(builtin_eval);
    builtin_eval = NULL;
}

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "condraughts",
    .m_doc = "Draughts rules, notation, engine and endgame tables (the condraughts library).",
    .m_size = -1,
    .m_methods = module_methods,
    .m_free = module_free,
};

PyMODINIT_FUNC PyInit_condraughts(void)
{
    char err[ERRLEN];
    if (!builtin_eval) {
        builtin_eval = eval_io_builtin(err, sizeof err);
        if (!builtin_eval) {
            PyErr_Format(PyExc_ImportError, "condraughts: %s", err);
            return NULL;
        }
    }
    PyTypeObject *types[] = {&MoveType, &BoardType, &EngineType, &TablebaseType};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (PyType_Ready(types[i]) < 0)
            return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    IllegalMoveError = PyErr_NewExceptionWithDoc(
        "condraughts.IllegalMoveError", "A move that is malformed, ambiguous or not legal here.",
        PyExc_ValueError, NULL);
    if (!IllegalMoveError || PyModule_AddObjectRef(m, "IllegalMoveError", IllegalMoveError) < 0 ||
        PyModule_AddObjectRef(m, "Board", (PyObject *)&BoardType) < 0 ||
        PyModule_AddObjectRef(m, "Move", (PyObject *)&MoveType) < 0 ||
        PyModule_AddObjectRef(m, "Engine", (PyObject *)&EngineType) < 0 ||
        PyModule_AddObjectRef(m, "Tablebase", (PyObject *)&TablebaseType) < 0 ||
        PyModule_AddIntConstant(m, "WHITE", CD_WHITE) < 0 ||
        PyModule_AddIntConstant(m, "BLACK", CD_BLACK) < 0 ||
        PyModule_AddIntConstant(m, "EMPTY", CD_EMPTY) < 0 ||
        PyModule_AddIntConstant(m, "WHITE_MAN", CD_WHITE_MAN) < 0 ||
        PyModule_AddIntConstant(m, "BLACK_MAN", CD_BLACK_MAN) < 0 ||
        PyModule_AddIntConstant(m, "WHITE_KING", CD_WHITE_KING) < 0 ||
        PyModule_AddIntConstant(m, "BLACK_KING", CD_BLACK_KING) < 0 ||
        PyModule_AddStringConstant(m, "__version__", CD_VERSION) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
