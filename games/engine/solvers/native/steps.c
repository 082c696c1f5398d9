/* The Steps search in C: the compiled core of games/engine/solvers/steps.py.
 *
 * The same search as steps_search.py, step for step: the same positions, the same
 * safe foundation moves, the same moves in the same order, the same canonical positions
 * in the transposition table and the same node counting, so that both paths give the
 * same verdict, line and node count within the same node budget. Read steps_search.py
 * for the why; this file only says where C differs:
 *
 * - the transposition table (steps_table.h) is an open-addressing table of 256-bit
 *   canonical keys that starts at 2^16 keys and doubles up to 2^TABLE_BITS
 *   (4,194,304 keys, 128 MB); when that is nearly full the search stops with unknown,
 *   so memory is bounded;
 * - the search's stack is allocated once (MAX_DEPTH frames) and freed on every path.
 *
 * search(rules, down, up, found, talon, waste, recycles, slots, max_nodes, max_ms)
 *   -> (verdict, [(kind, a, b, c), ...], nodes): verdict 1 won, 0 lost, -1 unknown.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RUN 13
#define PILES 7
#define SLOTS 4
#define MAX_DOWN 15
#define MAX_UP 13
#define MAX_TALON 52
#define MAX_DEPTH 4000
#define MAX_MOVES 2400
#define TIME_CHECK 256

enum { TF, TT, SF, ST, WF, WT, WS, TS, FT };
enum { V_LOST = 0, V_WON = 1, V_UNKNOWN = -1 };

typedef struct {
    uint8_t kind, a, b, c;
} Move;

typedef struct {
    uint8_t down[PILES][MAX_DOWN];
    uint8_t nd[PILES];
    uint8_t up[PILES][MAX_UP];
    uint8_t nu[PILES];
    uint8_t found[4];
    uint8_t talon[MAX_TALON];
    uint8_t nt;
    uint8_t waste;
    uint8_t recycles;
    int8_t slots[SLOTS];
} Pos;

typedef struct {
    int draw, buffers, recycles, retrieval;
} Rules;

#include "steps_table.h"

typedef struct {
    Pos pos;
    int first, count, index;
} Frame;

static int RANK[52], SUIT[52], RED[52];
static const int OTHER[4][2] = {{1, 2}, {0, 3}, {0, 3}, {1, 2}};

static void init_tables(void) {
    for (int card = 0; card < 52; card++) {
        RANK[card] = card % RUN + 1;
        SUIT[card] = card / RUN;
        RED[card] = SUIT[card] == 1 || SUIT[card] == 2;
    }
}

static int builds(int card, int onto) {
    return RANK[card] + 1 == RANK[onto] && RED[card] != RED[onto];
}

static int takes(const Pos *p, int pile, int card) {
    if (p->nu[pile]) return builds(card, p->up[pile][p->nu[pile] - 1]);
    return RANK[card] == RUN;
}

static int safe(int card, const uint8_t *found, int retrieval) {
    int value = RANK[card];
    if (value <= 2) return 1;
    if (retrieval) return 0;
    const int *other = OTHER[SUIT[card]];
    return found[other[0]] >= value - 1 && found[other[1]] >= value - 1;
}

static int fits(int card, const uint8_t *found) { return found[SUIT[card]] == RANK[card] - 1; }

static int up_safe(int card, const uint8_t *found, int retrieval) {
    return fits(card, found) && safe(card, found, retrieval);
}

static int usually_safe(int card, const uint8_t *found) {
    return fits(card, found) && safe(card, found, 0);
}

/* The talon cards the draws can bring to the top: q (1-based) and whether a recycle is
 * needed; as talon_reach in steps_search.py. */
static int talon_reach(int length, int waste, int draw, int recycle, int *qs, int *recs) {
    int n = 0, here_n;
    if (waste) {
        qs[n] = waste;
        recs[n++] = 0;
    }
    int position = waste;
    while (position < length) {
        position = position + draw < length ? position + draw : length;
        qs[n] = position;
        recs[n++] = 0;
    }
    here_n = n;
    if (recycle) {
        position = 0;
        while (position < length) {
            position = position + draw < length ? position + draw : length;
            int found = 0;
            for (int i = 0; i < here_n; i++)
                if (qs[i] == position) found = 1;
            if (!found) {
                qs[n] = position;
                recs[n++] = 1;
            }
        }
    }
    return n;
}

static int lift(Pos *p, int pile, int count, uint8_t *out) {
    int nu = p->nu[pile];
    memcpy(out, p->up[pile] + nu - count, (size_t)count);
    nu -= count;
    if (nu == 0 && p->nd[pile]) {
        p->up[pile][0] = p->down[pile][--p->nd[pile]];
        nu = 1;
    }
    p->nu[pile] = (uint8_t)nu;
    return count;
}

static void push_up(Pos *p, int pile, const uint8_t *cards, int count) {
    memcpy(p->up[pile] + p->nu[pile], cards, (size_t)count);
    p->nu[pile] = (uint8_t)(p->nu[pile] + count);
}

static void talon_remove(Pos *p, int index) {
    memmove(p->talon + index, p->talon + index + 1, (size_t)(p->nt - index - 1));
    p->nt--;
}

static void settle(const Rules *rules, Pos *p) {
    int going = 1;
    uint8_t card[1];
    while (going) {
        going = 0;
        for (int i = 0; i < PILES; i++) {
            while (p->nu[i] && up_safe(p->up[i][p->nu[i] - 1], p->found, rules->retrieval)) {
                lift(p, i, 1, card);
                p->found[SUIT[card[0]]]++;
                going = 1;
            }
        }
        for (int s = 0; s < SLOTS; s++) {
            int c = p->slots[s];
            if (c >= 0 && up_safe(c, p->found, rules->retrieval)) {
                p->found[SUIT[c]]++;
                p->slots[s] = -1;
                going = 1;
            }
        }
        if (rules->draw == 1) {
            while (p->waste && up_safe(p->talon[p->waste - 1], p->found, rules->retrieval)) {
                p->found[SUIT[p->talon[p->waste - 1]]]++;
                talon_remove(p, p->waste - 1);
                p->waste--;
                going = 1;
            }
        }
    }
}

static void apply(const Rules *rules, Pos *p, Move m) {
    uint8_t cards[MAX_UP];
    int a = m.a, b = m.b, c = m.c;
    if (m.kind == WF || m.kind == WT || m.kind == WS) {
        uint8_t card = p->talon[a - 1];
        talon_remove(p, a - 1);
        p->waste = (uint8_t)(a - 1);
        p->recycles = (uint8_t)(p->recycles + c);
        if (m.kind == WF)
            p->found[SUIT[card]]++;
        else if (m.kind == WT)
            push_up(p, b, &card, 1);
        else
            p->slots[b] = (int8_t)card;
    } else if (m.kind == TF) {
        lift(p, a, 1, cards);
        p->found[SUIT[cards[0]]]++;
    } else if (m.kind == TT) {
        lift(p, a, c, cards);
        push_up(p, b, cards, c);
    } else if (m.kind == TS) {
        lift(p, a, 1, cards);
        p->slots[b] = (int8_t)cards[0];
    } else if (m.kind == SF) {
        p->found[SUIT[p->slots[a]]]++;
        p->slots[a] = -1;
    } else if (m.kind == ST) {
        cards[0] = (uint8_t)p->slots[a];
        push_up(p, b, cards, 1);
        p->slots[a] = -1;
    } else { /* FT */
        p->found[a]--;
        cards[0] = (uint8_t)(a * RUN + p->found[a]);
        push_up(p, b, cards, 1);
    }
    (void)rules;
    settle(rules, p);
}

static int won(const Pos *p) { return p->found[0] + p->found[1] + p->found[2] + p->found[3] == 52; }

static void put_bits(Key *k, int *at, uint64_t value, int width) {
    int word = *at >> 6, offset = *at & 63;
    k->w[word] |= value << offset;
    if (offset + width > 64) k->w[word + 1] |= value >> (64 - offset);
    *at += width;
}

static void sort_small(int *values, int n) {
    for (int i = 1; i < n; i++) {
        int v = values[i], j = i;
        for (; j > 0 && values[j - 1] > v; j--) values[j] = values[j - 1];
        values[j] = v;
    }
}

/* The canonical key: as key_of in steps_search.py, packed exactly. For every card, what
 * lies on it in its pile (0 nothing, 1 or 2: which of the two cards that build on it);
 * per pile its face-down count and the bottom card of its face-up stack (the piles
 * without face-down cards sorted); the foundations; the slots sorted; waste; recycles. */
static Key key_of(const Pos *p) {
    Key k = {{0, 0, 0, 0}};
    int bottoms[PILES], loose[PILES], n_loose = 0;
    for (int i = 0; i < PILES; i++) {
        const uint8_t *up = p->up[i];
        for (int j = 0; j + 1 < p->nu[i]; j++) {
            int under = up[j], over = up[j + 1];
            uint64_t code = SUIT[over] == OTHER[SUIT[under]][0] ? 1 : 2;
            k.w[under >> 5] |= code << ((under & 31) * 2);
        }
        bottoms[i] = p->nu[i] ? up[0] : 63;
        if (!p->nd[i]) loose[n_loose++] = bottoms[i];
    }
    sort_small(loose, n_loose);
    for (int i = 0, l = 0; i < PILES; i++)
        if (!p->nd[i]) bottoms[i] = loose[l++];
    int at = 128;
    for (int i = 0; i < PILES; i++) put_bits(&k, &at, (uint64_t)(p->nd[i] << 6 | bottoms[i]), 10);
    put_bits(&k, &at, (uint64_t)(p->found[0] | p->found[1] << 4 | p->found[2] << 8 | p->found[3] << 12), 16);
    int slots[SLOTS];
    for (int s = 0; s < SLOTS; s++) slots[s] = p->slots[s] < 0 ? 63 : p->slots[s];
    sort_small(slots, SLOTS);
    put_bits(&k, &at, (uint64_t)(slots[0] | slots[1] << 6 | slots[2] << 12 | slots[3] << 18), 24);
    put_bits(&k, &at, (uint64_t)(p->waste | p->recycles << 6), 13);
    k.w[3] |= (uint64_t)1 << 63; /* occupied */
    return k;
}

#define ADD(k, x, y, z)                                                  \
    do {                                                                 \
        if (n < MAX_MOVES) out[n++] = (Move){(uint8_t)(k), (uint8_t)(x), \
                                             (uint8_t)(y), (uint8_t)(z)}; \
    } while (0)

/* The moves of a position, best first: as moves_of in steps_search.py. */
static int moves_of(const Rules *rules, const Pos *p, Move *out) {
    int n = 0, empty = -1, free_slot = -1;
    for (int j = 0; j < PILES; j++)
        if (!p->nu[j]) {
            empty = j;
            break;
        }
    for (int s = 0; s < rules->buffers; s++)
        if (p->slots[s] < 0) {
            free_slot = s;
            break;
        }
    int qs[2 * MAX_TALON + 2], recs[2 * MAX_TALON + 2];
    int reach = talon_reach(p->nt, p->waste, rules->draw, p->recycles < rules->recycles, qs, recs);
    int targets[PILES + 1], nt = 0;
    for (int j = 0; j < PILES; j++)
        if (p->nu[j]) targets[nt++] = j;
    if (empty >= 0) targets[nt++] = empty;
    /* First the foundation moves the usual safe rule would make by themselves where
     * settle() may not: pile tops from the left, slots, the waste top. */
    int eager_pile[PILES], eager_slot[SLOTS], eager_waste = 0;
    for (int i = 0; i < PILES; i++) {
        eager_pile[i] = p->nu[i] && usually_safe(p->up[i][p->nu[i] - 1], p->found);
        if (eager_pile[i]) ADD(TF, i, 0, 0);
    }
    for (int s = 0; s < SLOTS; s++) {
        eager_slot[s] = s < rules->buffers && p->slots[s] >= 0 && usually_safe(p->slots[s], p->found);
        if (eager_slot[s]) ADD(SF, s, 0, 0);
    }
    if (p->waste && usually_safe(p->talon[p->waste - 1], p->found)) {
        eager_waste = 1;
        ADD(WF, p->waste, 0, 0);
    }
    int order[PILES];
    for (int i = 0; i < PILES; i++) {
        int j = i;
        for (; j > 0 && p->nd[order[j - 1]] < p->nd[i]; j--) order[j] = order[j - 1];
        order[j] = i;
    }
    for (int o = 0; o < PILES; o++) {
        int i = order[o];
        if (p->nd[i] && p->nu[i] == 1 && fits(p->up[i][0], p->found) && !eager_pile[i])
            ADD(TF, i, 0, 0);
    }
    for (int o = 0; o < PILES; o++) {
        int i = order[o];
        if (p->nd[i]) {
            int head = p->up[i][0];
            for (int t = 0; t < nt; t++) {
                int j = targets[t];
                if (j != i && takes(p, j, head)) ADD(TT, i, j, p->nu[i]);
            }
        }
    }
    if (free_slot >= 0)
        for (int o = 0; o < PILES; o++)
            if (p->nd[order[o]] && p->nu[order[o]] == 1) ADD(TS, order[o], free_slot, 0);
    for (int i = 0; i < PILES; i++)
        if (p->nu[i] && !(p->nd[i] && p->nu[i] == 1) &&
            fits(p->up[i][p->nu[i] - 1], p->found) && !eager_pile[i])
            ADD(TF, i, 0, 0);
    for (int s = 0; s < rules->buffers; s++)
        if (p->slots[s] >= 0 && fits(p->slots[s], p->found) && !eager_slot[s]) ADD(SF, s, 0, 0);
    for (int r = 0; r < reach; r++)
        if (fits(p->talon[qs[r] - 1], p->found) &&
            !(eager_waste && qs[r] == p->waste && recs[r] == 0))
            ADD(WF, qs[r], 0, recs[r]);
    for (int r = 0; r < reach; r++) {
        int card = p->talon[qs[r] - 1];
        for (int t = 0; t < nt; t++)
            if (takes(p, targets[t], card)) ADD(WT, qs[r], targets[t], recs[r]);
    }
    for (int s = 0; s < rules->buffers; s++)
        if (p->slots[s] >= 0)
            for (int t = 0; t < nt; t++)
                if (takes(p, targets[t], p->slots[s])) ADD(ST, s, targets[t], 0);
    for (int i = 0; i < PILES; i++)
        if (p->nu[i] && !p->nd[i]) {
            int head = p->up[i][0];
            for (int t = 0; t < nt; t++) {
                int j = targets[t];
                if (p->nu[j] && j != i && builds(head, p->up[j][p->nu[j] - 1]))
                    ADD(TT, i, j, p->nu[i]);
            }
        }
    for (int i = 0; i < PILES; i++)
        for (int count = 1; count < p->nu[i]; count++) {
            int head = p->up[i][p->nu[i] - count];
            for (int t = 0; t < nt; t++) {
                int j = targets[t];
                if (p->nu[j] && j != i && builds(head, p->up[j][p->nu[j] - 1]))
                    ADD(TT, i, j, count);
            }
        }
    if (free_slot >= 0) {
        for (int i = 0; i < PILES; i++)
            if (p->nu[i] && !(p->nd[i] && p->nu[i] == 1)) ADD(TS, i, free_slot, 0);
        for (int r = 0; r < reach; r++) ADD(WS, qs[r], free_slot, recs[r]);
    }
    if (rules->retrieval)
        for (int s = 0; s < 4; s++)
            if (p->found[s]) {
                int card = s * RUN + p->found[s] - 1;
                for (int t = 0; t < nt; t++)
                    if (takes(p, targets[t], card)) ADD(FT, s, targets[t], 0);
            }
    return n;
}

typedef struct {
    int verdict;
    long nodes;
    int depth; /* of the line, when won */
} Outcome;

/* The depth-first search of search() in steps_search.py. ``line`` gets the won line. */
static Outcome run(const Rules *rules, const Pos *start, long max_nodes, long max_ms,
                   Move *line, Frame *frames, Move *moves, Table *table) {
    Outcome out = {V_UNKNOWN, 0, 0};
    if (won(start)) {
        out.verdict = V_WON;
        return out;
    }
    double deadline = max_ms > 0 ? now_ms() + (double)max_ms : 0;
    table->deadline = deadline;
    if (table_add(table, key_of(start)) < 0) return out;
    int depth = 1, cut = 0;
    long nodes = 1;
    unsigned steps = 0; /* the clock is looked at every TIME_CHECK of them, whatever they do */
    frames[0].pos = *start;
    frames[0].first = 0;
    frames[0].count = moves_of(rules, start, moves);
    frames[0].index = 0;
    while (depth) {
        if (deadline > 0 && ++steps % TIME_CHECK == 0 && now_ms() > deadline) {
            out.nodes = nodes;
            return out;
        }
        Frame *f = &frames[depth - 1];
        if (f->index == f->count) {
            depth--;
            continue;
        }
        Move m = moves[f->first + f->index++];
        Frame *child = &frames[depth];
        child->pos = f->pos;
        apply(rules, &child->pos, m);
        line[depth - 1] = m;
        if (won(&child->pos)) {
            out.verdict = V_WON;
            out.nodes = nodes;
            out.depth = depth;
            return out;
        }
        int added = table_add(table, key_of(&child->pos));
        if (added == 0) continue;
        if (added < 0 || nodes == max_nodes) {
            out.nodes = nodes;
            return out;
        }
        if (depth >= MAX_DEPTH) {
            cut = 1;
            continue;
        }
        nodes++;
        child->first = f->first + f->count;
        child->count = moves_of(rules, &child->pos, moves + child->first);
        child->index = 0;
        depth++;
    }
    out.verdict = cut ? V_UNKNOWN : V_LOST;
    out.nodes = nodes;
    return out;
}

static int read_cards(PyObject *seq, uint8_t *out, int limit, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > limit) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: too many cards", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if ((v == -1 && PyErr_Occurred()) || v < 0 || v > 51) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "%s: not a card", what);
            return -1;
        }
        out[i] = (uint8_t)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

static PyObject *py_search(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *down, *up, *found, *talon, *slots;
    int waste, recycles;
    long max_nodes, max_ms;
    Rules rules;
    if (!PyArg_ParseTuple(args, "(iiii)OOOOiiOll", &rules.draw, &rules.buffers, &rules.recycles,
                          &rules.retrieval, &down, &up, &found, &talon, &waste, &recycles,
                          &slots, &max_nodes, &max_ms))
        return NULL;
    Pos pos;
    memset(&pos, 0, sizeof pos);
    if (PySequence_Size(down) != PILES || PySequence_Size(up) != PILES) {
        PyErr_SetString(PyExc_ValueError, "seven piles");
        return NULL;
    }
    for (int i = 0; i < PILES; i++) {
        PyObject *d = PySequence_GetItem(down, i), *u = PySequence_GetItem(up, i);
        int nd = d ? read_cards(d, pos.down[i], MAX_DOWN, "down") : -1;
        int nu = (u && nd >= 0) ? read_cards(u, pos.up[i], MAX_UP, "up") : -1;
        Py_XDECREF(d);
        Py_XDECREF(u);
        if (nd < 0 || nu < 0) return NULL;
        pos.nd[i] = (uint8_t)nd;
        pos.nu[i] = (uint8_t)nu;
    }
    uint8_t four[SLOTS + 1];
    if (read_cards(found, four, 4, "found") != 4) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "four foundations");
        return NULL;
    }
    memcpy(pos.found, four, 4);
    int nt = read_cards(talon, pos.talon, MAX_TALON, "talon");
    if (nt < 0) return NULL;
    pos.nt = (uint8_t)nt;
    pos.waste = (uint8_t)waste;
    pos.recycles = (uint8_t)recycles;
    PyObject *fast = PySequence_Fast(slots, "slots");
    if (!fast) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != SLOTS) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "four slots");
        return NULL;
    }
    for (int s = 0; s < SLOTS; s++) pos.slots[s] = (int8_t)PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, s));
    Py_DECREF(fast);
    if (PyErr_Occurred()) return NULL;
    if (waste < 0 || waste > nt || recycles < 0 || rules.buffers < 0 || rules.buffers > SLOTS ||
        (rules.draw != 1 && rules.draw != 3)) {
        PyErr_SetString(PyExc_ValueError, "bad position");
        return NULL;
    }

    Frame *frames = malloc(sizeof(Frame) * (MAX_DEPTH + 1));
    Move *moves = malloc(sizeof(Move) * (size_t)MAX_MOVES * (MAX_DEPTH + 1));
    Move *line = malloc(sizeof(Move) * (MAX_DEPTH + 1));
    Table table = {calloc(TABLE_START, sizeof(Key)), 0, TABLE_START - 1, 0};
    if (!frames || !moves || !line || !table.slots) {
        free(frames);
        free(moves);
        free(line);
        free(table.slots);
        return PyErr_NoMemory();
    }
    Outcome out;
    Py_BEGIN_ALLOW_THREADS
    out = run(&rules, &pos, max_nodes, max_ms, line, frames, moves, &table);
    Py_END_ALLOW_THREADS
    free(frames);
    free(moves);
    free(table.slots);
    PyObject *list = PyList_New(out.verdict == V_WON ? out.depth : 0);
    if (!list) {
        free(line);
        return NULL;
    }
    for (int i = 0; out.verdict == V_WON && i < out.depth; i++) {
        PyObject *m = Py_BuildValue("(iiii)", line[i].kind, line[i].a, line[i].b, line[i].c);
        if (!m) {
            free(line);
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, m);
    }
    free(line);
    return Py_BuildValue("(iNl)", out.verdict, list, out.nodes);
}

static PyMethodDef methods[] = {
    {"search", py_search, METH_VARARGS, "The Steps search (see steps_search.py)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_steps_native", "The compiled Steps search.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__steps_native(void) {
    init_tables();
    return PyModule_Create(&module);
}
