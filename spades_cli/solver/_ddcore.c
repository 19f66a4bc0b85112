/* The double-dummy search core in C, for hindsight analysis (``solver/fast.py``).
 *
 * The same game as ``solver/search.py``: the trick winner (R-C-4) by the order of the
 * cards (``order``: for each card the cards that beat it, the trumps and their suit) and
 * the legal cards by the play rules' restrictions (``keeps``), both handed over as data
 * by engine/play.py, in slot cards (solver/deck.py: suit * 16 + slot, any deck of the
 * family); two to four seats in two teams (``team``: the two sides, or a side against
 * every other seat). One
 * question at a time: can team ``side`` make the hand's value at least ``u``? The value
 * is either a count (the tricks of the counted seats: ``inc[seat]`` is 1 for a counted
 * seat, 0 otherwise) or a table read at the end of the hand (``code`` grows by
 * ``inc[seat]`` for each trick a seat wins; ``table[code]`` is the value).
 *
 * What keeps it fast (the ideas of solver/search.py, in C): a partition transposition
 * table at every trick's start (_ddcore_table.h: bounds valid for every position with the
 * same suit lengths per hand, leader and flags whose top cards, down to the ones the
 * proof depended on, have the same owners; four ways a slot, started small and grown as
 * it fills); sure-trick bounds (_ddcore_sure.h, as
 * solver/sure.py, each depending only on the top cards it counted, as many as the
 * question needs; in count mode read before the table at four tricks or fewer); in table mode, bounds on side N-S's tricks to come decide what they
 * can, then the tricks no seat can avoid (a seat's spades no other spade beats), side
 * by side and group by group, a trick target is searched as the count game in a shared count table, and a
 * question is kept by the set of N-S trick counts it asks for, or else by the set of
 * outcomes to come (the groups' tricks) it asks for, reading the answers of the nearest
 * sets within it and holding it too (a nil seat's side); equivalent cards
 * searched once, and after a card that fails, the lower cards of its suit below every
 * card its answer read skipped; within a trick, a trick the side on turn needs and
 * surely takes answers at once (count mode: the last counted trick it needs, taken by a
 * counted seat; table mode: a trick after which every outcome goes its way); the best
 * card found before tried first, then
 * (count mode: every lead, and the follows of a seat counted alone's side; table mode:
 * the tricks whose question is kept as a set) the card that last made the cut at the
 * same depth, then (those tricks of table mode) the cards by the cuts they made there, then
 * cheap winners or useless losers (_ddcore_moves.h); the last trick counted, not
 * searched (_ddcore_search.h).
 *
 * Exactness is tested against brute force and the Python solver (tests/solver/test_ddfast.py).
 * A search over its budget stops and says so; it holds no Python object and lets other
 * threads run, one thread to one solver.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "_ddcore_moves.h"
#include "_ddcore_table.h"
#include "_ddcore_sure.h"
#include "_ddcore_search.h"

/* -- the Python type ----------------------------------------------------------------- */

static void release(Core *c) {
    tables_free(&c->tt);
    c->ctt = NULL;
    Py_CLEAR(c->shared);
    free(c->table);
    c->table = NULL;
    if (c->frange) {
        for (size_t i = 0; i < c->frange_cells; i++) free(c->frange[i]);
        free(c->frange);
    }
    c->frange = NULL;
    c->frange_cells = 0;
    free(c->os_keys);
    free(c->os_rel);
    free(c->os_of);
    free(c->os_seen);
    c->os_of = NULL;
    c->os_seen = NULL;
    c->os_asked = 0;
    c->os_keys = NULL;
    c->os_rel = NULL;
    c->os_cap = c->os_count = c->os_rel_cap = 0;
}

static void Core_dealloc(Core *c) {
    release(c);
    Py_TYPE(c)->tp_free((PyObject *)c);
}

static int read_ints(PyObject *seq, int *out, int count, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != count) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: %d values wanted", what, count);
        return -1;
    }
    for (int i = 0; i < count; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

/* The play rules' keep table: for each of the 8 situations, up to MAX_KEEPS masks (a
 * negative one, -m: the lowest card of the hand in m, R-F-3). */
static int read_keeps(Core *c, PyObject *keeps) {
    PyObject *rows = PySequence_Fast(keeps, "keeps");
    if (!rows) return -1;
    int ok = PySequence_Fast_GET_SIZE(rows) == SITUATIONS;
    for (int s = 0; ok && s < SITUATIONS; s++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(rows, s), "keeps");
        if (!row) {
            Py_DECREF(rows);
            return -1;
        }
        Py_ssize_t m = PySequence_Fast_GET_SIZE(row);
        ok = m <= MAX_KEEPS;
        c->nkeep[s] = ok ? (int)m : 0;
        for (Py_ssize_t i = 0; ok && i < m; i++) {
            PyObject *item = PySequence_Fast_GET_ITEM(row, i);
            int neg = PyObject_RichCompareBool(item, Py_False, Py_LT); /* below 0 */
            PyObject *mag = neg > 0 ? PyNumber_Negative(item) : (Py_INCREF(item), item);
            ok = neg >= 0 && mag != NULL;
            if (ok) c->keep[s][i] = PyLong_AsUnsignedLongLong(mag);
            Py_XDECREF(mag);
            c->keep_low[s][i] = neg > 0;
            ok = ok && !PyErr_Occurred();
        }
        Py_DECREF(row);
    }
    Py_DECREF(rows);
    if (!ok) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "keeps: 8 rows of at most 4 card masks");
        return -1;
    }
    return 0;
}

/* 64 slot-card masks from a sequence. */
static int read_masks(PyObject *seq, u64 *out, const char *what) {
    PyObject *rows = PySequence_Fast(seq, what);
    if (!rows) return -1;
    int ok = PySequence_Fast_GET_SIZE(rows) == NSLOTS;
    for (int i = 0; ok && i < NSLOTS; i++) {
        out[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(rows, i));
        ok = !PyErr_Occurred();
    }
    Py_DECREF(rows);
    if (!ok && !PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "%s: 64 slot-card masks", what);
    return ok ? 0 : -1;
}

/* The order of the cards in a trick (engine/play.py's, in slot cards: solver/fast.py): for
 * each of the 64 slot cards the mask of its suit for following and of the cards that
 * beat it, the mask of the trumps and their suit. */
static int read_order(Core *c, PyObject *order) {
    PyObject *follow, *beaten;
    unsigned long long trump;
    int suit;
    if (!PyArg_ParseTuple(order, "OOKi", &follow, &beaten, &trump, &suit)) return -1;
    if (read_masks(follow, c->follow, "order") < 0 || read_masks(beaten, c->beaten, "order") < 0) return -1;
    if (suit < 0 || suit > 3) {
        PyErr_SetString(PyExc_ValueError, "order: the trumps and their suit");
        return -1;
    }
    c->trump = trump;
    c->trump_suit = suit;
    /* A suit of more than 13 cards needs 32 bits of a pattern (2 a card); else 26, as ever. */
    u64 deck = 0;
    for (int i = 0; i < NSLOTS; i++) deck |= c->follow[i];
    c->pshift = 26;
    for (int s = 0; s < 4; s++)
        if (pop64(deck & SUIT_MASK[s]) > 13) c->pshift = 32;
    return 0;
}

/* Table mode: which groups' tricks are counted (every seat of a group counted alike, and
 * every counted seat of one team, or no counted bounds at all), and the value's ranges. */
static int init_groups(Core *c, int n, int ngroups, int radix) {
    int seen[4] = {0, 0, 0, 0};
    c->count_ok = 1;
    for (int s = 0; s < n; s++) {
        int g = 0, pw = 1;
        while (g < ngroups && pw != c->inc[s]) {
            pw *= radix;
            g++;
        }
        if (g == ngroups) {
            PyErr_SetString(PyExc_ValueError, "inc: a power of the radix a seat");
            return -1;
        }
        if (seen[g] && c->gcnt[g] != (c->cnt[s] != 0)) c->count_ok = 0;
        seen[g] = 1;
        c->gcnt[g] = c->cnt[s] != 0;
    }
    size_t cells = MAXT + 1;
    for (int i = 0; i < ngroups; i++) cells *= (size_t)radix;
    c->frange = calloc(cells, sizeof(double *));
    if (!c->frange) {
        PyErr_NoMemory();
        return -1;
    }
    c->frange_cells = cells;
    if (!c->count_ok) memset(c->gcnt, 0, sizeof c->gcnt);
    c->count_side = -1;
    for (int s = 0; s < n; s++) {
        if (!c->cnt[s]) continue;
        if (c->count_side >= 0 && c->count_side != c->team[s]) c->count_ok = 0; /* not one team's */
        c->count_side = c->team[s];
    }
    if (c->count_side < 0) c->count_ok = 0;
    return 0;
}

static int Core_init(Core *c, PyObject *args, PyObject *kw) {
    static char *names[] = {"n",       "keeps",      "order",   "side", "inc",  "cnt",   "keen", "table",
                            "ngroups", "count_mode", "tt_bits", "team", "mate", "pairs", "radix", "start_bits", NULL};
    int n, side, ngroups, count_mode, bits, pairs, radix, start = START_BITS;
    PyObject *keeps, *order, *inc, *cnt, *keen, *table, *team, *mate;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "iOOiOOOOiiiOOii|i", names, &n, &keeps, &order, &side, &inc, &cnt,
                                     &keen, &table, &ngroups, &count_mode, &bits, &team, &mate, &pairs, &radix,
                                     &start))
        return -1;
    if (n < 2 || n > 4 || side < 0 || side > 1 || ngroups < 1 || ngroups > 4 || bits < 10 || bits > 26 ||
        radix < 14 || radix > MAXT + 1) {
        PyErr_SetString(PyExc_ValueError, "bad solver settings");
        return -1;
    }
    release(c);
    c->tricks = 0;
    c->n = n;
    c->radix = radix;
    c->pairs = n == 4 && pairs != 0;
    if (read_keeps(c, keeps) < 0 || read_order(c, order) < 0) return -1;
    if (read_ints(team, c->team, n, "team") < 0 || read_ints(mate, c->mate, n, "mate") < 0) return -1;
    for (int s = 0; s < n; s++) {
        if (c->team[s] < 0 || c->team[s] > 1 || c->mate[s] < -1 || c->mate[s] >= n) {
            PyErr_SetString(PyExc_ValueError, "team: 0 or 1 a seat; mate: a seat or -1");
            return -1;
        }
    }
    c->side = side;
    c->ngroups = ngroups;
    c->count_mode = count_mode != 0;
    memset(c->inc, 0, sizeof c->inc);
    memset(c->cnt, 0, sizeof c->cnt);
    memset(c->keen, 0, sizeof c->keen);
    if (read_ints(inc, c->inc, n, "inc") < 0 || read_ints(cnt, c->cnt, n, "cnt") < 0 ||
        read_ints(keen, c->keen, n, "keen") < 0)
        return -1;
    PyObject *fast = PySequence_Fast(table, "table");
    if (!fast) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    c->table = malloc(sizeof(double) * (size_t)(len ? len : 1));
    if (!c->table) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        c->table[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
        if (c->table[i] == -1.0 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    c->table_len = len;
    c->alone = -1;
    if (c->count_mode && c->pairs && c->inc[0] + c->inc[1] + c->inc[2] + c->inc[3] == 1)
        for (int s = 0; s < n; s++)
            if (c->inc[s]) c->alone = s;
    c->count_ok = 0;
    if (!c->count_mode && init_groups(c, n, ngroups, radix) < 0) return -1;
    if (start < 10) start = 10;
    if (tables_alloc(&c->tt, bits < start ? bits : start, bits) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    c->ctt = c->count_mode ? &c->tt : NULL;
    return 0;
}

static PyObject *Core_load(Core *c, PyObject *args) {
    PyObject *hands, *trick;
    int leader, current, broken, first, win_card, win_seat, left, code, ccode;
    if (!PyArg_ParseTuple(args, "OOiiiiiiiii", &hands, &trick, &leader, &current, &broken, &first, &win_card,
                          &win_seat, &left, &code, &ccode))
        return NULL;
    PyObject *fast = PySequence_Fast(hands, "hands");
    if (!fast) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != c->n) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "hands: one per seat");
        return NULL;
    }
    u64 held = 0;
    memset(c->hands, 0, sizeof c->hands);
    for (int i = 0; i < c->n; i++) {
        unsigned long long h = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred()) {
            Py_DECREF(fast);
            return NULL;
        }
        if (pop64(h) > MAXT || (h & held)) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "hands: at most 17 cards each, none in two hands");
            return NULL;
        }
        c->hands[i] = h;
        held |= h;
    }
    Py_DECREF(fast);
    fast = PySequence_Fast(trick, "trick");
    if (!fast) return NULL;
    Py_ssize_t tl = PySequence_Fast_GET_SIZE(fast);
    if (tl >= c->n) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "trick: too many cards");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < tl; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v < 0 || v >= NSLOTS) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "trick: not a card");
            return NULL;
        }
        if (held & (1ULL << v)) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "trick: a card also in a hand");
            return NULL;
        }
        c->trick[i] = (int)v;
        held |= 1ULL << v;
    }
    Py_DECREF(fast);
    if (left < 0 || left > MAXT || code < 0 || (!c->count_mode && code >= c->table_len) || leader < 0 ||
        leader >= c->n || current < 0 || current >= c->n) {
        PyErr_SetString(PyExc_ValueError, "not a position");
        return NULL;
    }
    c->tlen = (int)tl;
    c->leader = leader;
    c->current = current;
    c->broken = broken != 0;
    c->first = first != 0;
    c->win_card = win_card;
    c->win_seat = win_seat;
    c->left = left;
    c->code = code;
    c->ccode = ccode;
    c->gone = ~held;
    Py_RETURN_NONE;
}

/* test(card, u, budget) -> (1 yes / 0 no / -1 over the budget, positions searched) */
static PyObject *Core_test(Core *c, PyObject *args) {
    int card;
    double u;
    long long budget;
    if (!PyArg_ParseTuple(args, "idL", &card, &u, &budget)) return NULL;
    if (card >= 0 && (card >= NSLOTS || !((legal(c, c->current) >> card) & 1))) {
        PyErr_SetString(PyExc_ValueError, "not a legal card here");
        return NULL;
    }
    c->nodes = 0;
    c->aborted = 0;
    memset(c->killer, -1, sizeof c->killer); /* each question learns its own */
    memset(c->tkiller, -1, sizeof c->tkiller);
    if (!c->count_mode) memset(c->cuts, 0, sizeof c->cuts);
    memset(c->as_set, 0, sizeof c->as_set);
    c->budget = budget;
    int r;
    /* The search reads and writes only this object's memory: other threads may run. The
     * caller keeps one object to one thread at a time. */
    Py_BEGIN_ALLOW_THREADS
    if (card >= 0)
        r = play(c, card, u);
    else if (c->tlen == 0)
        r = lead(c, u);
    else
        r = node(c, u, -1);
    Py_END_ALLOW_THREADS
    if (c->aborted) r = -1;
    return Py_BuildValue("iL", r, c->nodes);
}

/* share(other): read the bounds on the counted tricks to come that ``other`` (a count-mode
 * solver counting the same seats) keeps, to answer this table-mode solver's questions. */
static PyObject *Core_share(Core *c, PyObject *other) {
    if (!PyObject_TypeCheck(other, Py_TYPE(c))) {
        PyErr_SetString(PyExc_TypeError, "share: another Core");
        return NULL;
    }
    Core *o = (Core *)other;
    if (c->count_mode || !o->count_mode || o->n != c->n || !c->count_ok || o->radix != c->radix ||
        memcmp(o->team, c->team, sizeof c->team) != 0 || memcmp(o->inc, c->cnt, sizeof c->cnt) != 0) {
        PyErr_SetString(PyExc_ValueError, "share: a count solver of the same counted seats, for a table solver");
        return NULL;
    }
    Py_INCREF(other);
    Py_XSETREF(c->shared, other);
    c->ctt = &o->tt;
    Py_RETURN_NONE;
}

/* legal() -> every legal card of the seat on turn, low first */
static PyObject *Core_legal(Core *c, PyObject *Py_UNUSED(ignored)) {
    u64 mask = legal(c, c->current);
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    while (mask) {
        PyObject *v = PyLong_FromLong(ctz64(mask));
        mask &= mask - 1;
        if (!v || PyList_Append(out, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(v);
    }
    return out;
}

/* stop(): a search running in another thread ends as over its budget; so do later ones */
static PyObject *Core_stop(Core *c, PyObject *Py_UNUSED(ignored)) {
    c->stopped = 1;
    Py_RETURN_NONE;
}

/* moves() -> one legal card of each run of equivalent cards of the seat on turn, low first */
static PyObject *Core_moves(Core *c, PyObject *Py_UNUSED(ignored)) {
    int moves[MAXH];
    int m = distinct(c, c->current, legal(c, c->current), moves);
    PyObject *out = PyList_New(m);
    if (!out) return NULL;
    for (int i = 0; i < m; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(moves[i]));
    return out;
}

/* tricks() -> the tricks this solver's searches finished (each a trick's last card played
 * in the search: the figure DDS reports as its nodes) */
static PyObject *Core_tricks(Core *c, PyObject *Py_UNUSED(ignored)) { return PyLong_FromLongLong(c->tricks); }

static PyMethodDef Core_methods[] = {
    {"load", (PyCFunction)Core_load, METH_VARARGS, "Search from this position next."},
    {"test", (PyCFunction)Core_test, METH_VARARGS, "Can the side make the value at least u?"},
    {"moves", (PyCFunction)Core_moves, METH_NOARGS, "Distinct legal cards, low first."},
    {"legal", (PyCFunction)Core_legal, METH_NOARGS, "Every legal card, low first."},
    {"share", (PyCFunction)Core_share, METH_O, "Read another solver's counted-trick bounds."},
    {"stop", (PyCFunction)Core_stop, METH_NOARGS, "End the search running in another thread."},
    {"tricks", (PyCFunction)Core_tricks, METH_NOARGS, "Tricks the searches finished."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "spades_cli.solver._ddcore.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
    .tp_doc = "Double-dummy search core (see solver/fast.py).",
};

/* release_kept(): give the tables freed solvers left (kept for the next) back to the system */
static PyObject *release_kept(PyObject *Py_UNUSED(m), PyObject *Py_UNUSED(ignored)) {
    pool_release();
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"release_kept", release_kept, METH_NOARGS, "Give the tables kept from freed solvers back to the system."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_ddcore", "Double-dummy search core in C.", -1, module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__ddcore(void) {
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    have_bmi2 = __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
#endif
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
