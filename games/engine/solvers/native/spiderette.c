/*
 * The Spiderette search's compiled core: games.engine.solvers._spiderette_native.
 *
 * The same search as games/engine/solvers/spiderette_search.py, step for step (the same
 * moves, scored and ordered the same way, the same canonical positions, the same node
 * counting), so both give the same verdict, line and node count within the same node
 * budget. Cards are 0..51 (suit * 13 + rank - 1); a pile holds its cards bottom first,
 * the first `down` of them face down; the stock is consumed from its end. Two phases,
 * each a depth-first search with its own transposition table: the restricted moves
 * first (no part of a run, no unit moved between two cards of one rank), then every
 * move, the phase that alone can prove a loss.
 *
 * Memory is bounded: the transposition table (spiderette_table.h) is an open-addressing
 * array of 128-bit position hashes that doubles as it fills, up to 2^TABLE_MAX_BITS
 * slots (256 MiB, 12.5 million positions), and the search stack is capped at MAX_DEPTH
 * frames. A search that fills the table answers unknown; a position deeper than the cap
 * is not expanded and the search can then no longer answer lost.
 *
 *     search(piles: list[(down, list[int])], stock: list[int], removed: int,
 *            max_nodes: int (0: none), max_ms: int (0: none))
 *         -> (verdict: 1 won, 0 lost, -1 unknown, line: list[(src, dst, count)], nodes)
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RUN 13
#define RUNS 4
#define PILES 7
#define DEAL_SIZE 7
#define LAST_DEAL 3
#define CARDS 52
#define MAX_MOVES 512
#define MAX_DEPTH 10000
#define MOVE_POOL (MAX_DEPTH * 64)
#define TIME_CHECK 256

#define V_WON 1
#define V_LOST 0
#define V_UNKNOWN (-1)

/* Move scores: the same as spiderette_search.py. */
#define S_COMPLETE 1000
#define S_REVEAL 500
#define S_EMPTIES 400
#define S_SUITED 60
#define S_JOIN 300
#define S_KING_TO_EMPTY 100
#define S_NEW_LINK 150
#define S_TO_EMPTY 50
#define S_DEALING 30
#define S_SWAP 20
#define S_BREAK 10

typedef struct {
    uint8_t n;    /* cards in the pile */
    uint8_t down; /* of which face down, at the bottom */
    uint8_t c[CARDS];
} Pile;

typedef struct {
    Pile p[PILES];
    uint64_t ha[PILES], hb[PILES]; /* each pile's hash pair (pile_hash_full) */
    int stock; /* cards left in the stock */
    int removed;
} State;

typedef struct {
    int8_t src; /* -1: deal */
    int8_t dst;
    uint8_t count;
    int16_t score;
} MoveRec;

typedef struct {
    State state;
    int first; /* its moves: moves[first .. first + count) */
    int count;
    int next;
} Frame;

static inline uint64_t mix64(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

#include "spiderette_table.h"

/* Zobrist keys: a pile's hash is the XOR of one key per (height, card) and one per
 * face-down count, so a move rehashes only the cards it moves. */
static uint64_t zob_a[CARDS][CARDS], zob_b[CARDS][CARDS], down_a[CARDS], down_b[CARDS];

static void init_keys(void) {
    uint64_t x = 0x5350494445524554ULL; /* "SPIDERET" */
    for (int i = 0; i < CARDS; i++) {
        for (int c = 0; c < CARDS; c++) {
            zob_a[i][c] = mix64(x += 0x9e3779b97f4a7c15ULL);
            zob_b[i][c] = mix64(x += 0x9e3779b97f4a7c15ULL);
        }
        down_a[i] = mix64(x += 0x9e3779b97f4a7c15ULL);
        down_b[i] = mix64(x += 0x9e3779b97f4a7c15ULL);
    }
}

static void pile_hash_full(State *s, int i) {
    const Pile *pile = &s->p[i];
    uint64_t a = down_a[pile->down], b = down_b[pile->down];
    for (int k = 0; k < pile->n; k++) {
        a ^= zob_a[k][pile->c[k]];
        b ^= zob_b[k][pile->c[k]];
    }
    s->ha[i] = a;
    s->hb[i] = b;
}

static int hash_less(Hash2 x, Hash2 y) { return x.a < y.a || (x.a == y.a && x.b < y.b); }

/* The canonical position's hash pair (see spiderette_search.canonical). */
static Hash2 canonical(const State *s) {
    Hash2 h[PILES];
    for (int i = 0; i < PILES; i++) {
        h[i].a = s->ha[i];
        h[i].b = s->hb[i];
    }
    int from = s->stock == 0 ? 0 : s->stock == LAST_DEAL ? LAST_DEAL : PILES;
    for (int i = from + 1; i < PILES; i++) {
        Hash2 x = h[i];
        int j = i - 1;
        while (j >= from && hash_less(x, h[j])) {
            h[j + 1] = h[j];
            j--;
        }
        h[j + 1] = x;
    }
    uint64_t a = 0x452821e638d01377ULL + (uint64_t)s->stock;
    uint64_t b = 0xbe5466cf34e90c6cULL + (uint64_t)s->stock * 0x100000001b3ULL;
    for (int i = 0; i < PILES; i++) {
        a = mix64(a ^ h[i].a) + (uint64_t)i;
        b = mix64(b + h[i].b) ^ ((uint64_t)i << 40);
    }
    Hash2 r = {a, b | 1}; /* b is never 0, the empty slot's mark */
    return r;
}

static inline int rank_of(int card) { return card % RUN + 1; }

static int suit_run(const Pile *pile) {
    int size = pile->n;
    if (size == pile->down) return 0;
    int length = 1;
    while (size - length > pile->down &&
           pile->c[size - length - 1] == pile->c[size - length] + 1 &&
           rank_of(pile->c[size - length]) != RUN)
        length++;
    return length;
}

/* Removes a completed run at the top of the pile; 1 if it did. */
static int settle(Pile *pile) {
    int size = pile->n;
    if (size - pile->down >= RUN && rank_of(pile->c[size - 1]) == 1 && suit_run(pile) >= RUN) {
        pile->n = (uint8_t)(size - RUN);
        if (pile->down && pile->n == pile->down) pile->down--;
        return 1;
    }
    return 0;
}

static int can_deal(const State *s) {
    if (!s->stock) return 0;
    int all = 1, total = 0;
    for (int i = 0; i < PILES; i++) {
        if (!s->p[i].n) all = 0;
        total += s->p[i].n;
    }
    return all || total < PILES;
}

/* Appends the ordered moves of s at moves[at..]; returns how many. */
static int ordered_moves(const State *s, MoveRec *moves, int restricted) {
    int count = 0;
    int interchangeable = s->stock == 0;
    int last_deal = s->stock == LAST_DEAL;
    int runs[PILES];
    for (int i = 0; i < PILES; i++) runs[i] = suit_run(&s->p[i]);
    for (int source = 0; source < PILES; source++) {
        const Pile *pile = &s->p[source];
        int size = pile->n, down = pile->down, up = size - down;
        for (int k = 1; k <= runs[source]; k++) {
            int head = pile->c[size - k];
            int wanted = rank_of(head) + 1;
            int whole = k == up;
            int below = whole ? -1 : pile->c[size - k - 1];
            for (int target = 0; target < PILES; target++) {
                if (target == source) continue;
                const Pile *tp = &s->p[target];
                int score;
                if (!tp->n) {
                    if (whole && !down) {
                        if (interchangeable || (last_deal && source >= LAST_DEAL && target >= LAST_DEAL))
                            continue;
                        score = S_TO_EMPTY;
                    } else if (whole) {
                        score = S_REVEAL;
                    } else if (wanted > RUN) {
                        score = S_KING_TO_EMPTY;
                    } else {
                        score = S_TO_EMPTY;
                    }
                } else {
                    int top = tp->c[tp->n - 1];
                    if (rank_of(top) != wanted) continue;
                    int suited = top == head + 1;
                    if (suited && rank_of(pile->c[size - 1]) == 1 && k + runs[target] >= RUN)
                        score = S_COMPLETE;
                    else if (whole)
                        score = (down ? S_REVEAL : S_EMPTIES) + (suited ? S_SUITED : 0);
                    else if (k < runs[source])
                        score = S_BREAK;
                    else if (suited)
                        score = S_JOIN;
                    else if (rank_of(below) == wanted)
                        score = S_SWAP;
                    else
                        score = S_NEW_LINK;
                }
                /* The first phase leaves out moves that rarely help: part of a run,
                 * and a unit moved from one card to another of the same rank. */
                if (restricted && (k < runs[source] || score == S_SWAP)) continue;
                if (count < MAX_MOVES - 1) {
                    moves[count].src = (int8_t)source;
                    moves[count].dst = (int8_t)target;
                    moves[count].count = (uint8_t)k;
                    moves[count].score = (int16_t)score;
                    count++;
                }
            }
        }
    }
    if (can_deal(s)) {
        moves[count].src = -1;
        moves[count].dst = -1;
        moves[count].count = 0;
        moves[count].score = S_DEALING;
        count++;
    }
    /* Stable insertion sort, highest score first (Python's stable sort on -score). */
    for (int i = 1; i < count; i++) {
        MoveRec m = moves[i];
        int j = i - 1;
        while (j >= 0 && moves[j].score < m.score) {
            moves[j + 1] = moves[j];
            j--;
        }
        moves[j + 1] = m;
    }
    return count;
}

static void apply_move(State *s, const uint8_t *stock, const MoveRec *m) {
    if (m->src < 0) {
        int size = s->stock < DEAL_SIZE ? s->stock : DEAL_SIZE;
        for (int i = 0; i < size; i++) {
            Pile *pile = &s->p[i];
            pile->c[pile->n++] = stock[s->stock - 1 - i];
            s->removed += settle(pile);
            pile_hash_full(s, i);
        }
        s->stock -= size;
        return;
    }
    int src = m->src, dst = m->dst, k = m->count;
    Pile *from = &s->p[src];
    Pile *to = &s->p[dst];
    uint64_t fa = s->ha[src] ^ down_a[from->down], fb = s->hb[src] ^ down_b[from->down];
    uint64_t ta = s->ha[dst], tb = s->hb[dst];
    for (int i = 0; i < k; i++) {
        int card = from->c[from->n - k + i];
        int was = from->n - k + i, at = to->n + i;
        fa ^= zob_a[was][card];
        fb ^= zob_b[was][card];
        ta ^= zob_a[at][card];
        tb ^= zob_b[at][card];
        to->c[at] = (uint8_t)card;
    }
    to->n = (uint8_t)(to->n + k);
    from->n = (uint8_t)(from->n - k);
    if (from->down && from->n == from->down) from->down--;
    s->ha[src] = fa ^ down_a[from->down];
    s->hb[src] = fb ^ down_b[from->down];
    s->ha[dst] = ta;
    s->hb[dst] = tb;
    if (settle(to)) {
        s->removed++;
        pile_hash_full(s, dst);
    }
}

typedef struct {
    int verdict;
    long long nodes;
    int depth; /* the line's length when won */
} Outcome;


enum { PASS_DONE, PASS_INCOMPLETE, PASS_WON, PASS_BUDGET };

/* One phase of the depth-first search (see spiderette_search._pass). */
static int run_pass(const State *root, const uint8_t *stock, long long max_nodes,
                    double deadline, int restricted, long long *nodes_io, Frame *frames,
                    MoveRec *moves, MoveRec *line, int *line_length, Table *table) {
    long long nodes = *nodes_io;
    int incomplete = 0;
    table_clear(table);
    table->deadline = deadline;
    table_insert(table, canonical(root));
    int depth = 0;
    unsigned steps = 0; /* the clock is looked at every TIME_CHECK of them, whatever they do */
    frames[0].state = *root;
    frames[0].first = 0;
    frames[0].count = ordered_moves(root, moves, restricted);
    frames[0].next = 0;
    int used = frames[0].count;
    while (depth >= 0) {
        if (deadline > 0 && ++steps % TIME_CHECK == 0 && now_ms() >= deadline) {
            *nodes_io = nodes;
            return PASS_BUDGET;
        }
        Frame *f = &frames[depth];
        if (f->next == f->count) {
            used = f->first;
            depth--;
            continue;
        }
        MoveRec m = moves[f->first + f->next];
        f->next++;
        State child = f->state;
        apply_move(&child, stock, &m);
        if (child.removed == RUNS) {
            for (int i = 0; i < depth; i++) line[i] = moves[frames[i].first + frames[i].next - 1];
            line[depth] = m;
            *line_length = depth + 1;
            *nodes_io = nodes;
            return PASS_WON;
        }
        Hash2 h = canonical(&child);
        if (table_present(table, h)) continue;
        if (max_nodes > 0 && nodes >= max_nodes) {
            *nodes_io = nodes;
            return PASS_BUDGET;
        }
        if (depth + 1 >= MAX_DEPTH || used + MAX_MOVES > MOVE_POOL) {
            incomplete = 1;
            continue;
        }
        if (table_insert(table, h) < 0) {
            *nodes_io = nodes;
            return PASS_BUDGET; /* the table is full: unknown */
        }
        nodes++;
        depth++;
        Frame *g = &frames[depth];
        g->state = child;
        g->first = used;
        g->count = ordered_moves(&child, moves + used, restricted);
        g->next = 0;
        used += g->count;
    }
    *nodes_io = nodes;
    return incomplete ? PASS_INCOMPLETE : PASS_DONE;
}

static Outcome run_search(const State *root, const uint8_t *stock, long long max_nodes,
                          long long max_ms, Frame *frames, MoveRec *moves, MoveRec *line,
                          Table *table) {
    Outcome out = {V_UNKNOWN, 0, 0};
    double deadline = max_ms > 0 ? now_ms() + (double)max_ms : 0.0;
    if (root->removed == RUNS) {
        out.verdict = V_WON;
        return out;
    }
    long long nodes = 1;
    int result = PASS_DONE;
    /* First the restricted moves (most wins are found there, fast), then, if that space
     * is exhausted without a win, every move: only that phase can prove a loss. */
    for (int restricted = 1; restricted >= 0; restricted--) {
        int length = 0;
        result = run_pass(root, stock, max_nodes, deadline, restricted, &nodes, frames, moves,
                          line, &length, table);
        out.nodes = nodes;
        if (result == PASS_WON) {
            out.verdict = V_WON;
            out.depth = length;
            return out;
        }
        if (result == PASS_BUDGET) return out;
    }
    if (result == PASS_DONE) out.verdict = V_LOST;
    return out;
}

static int read_cards(PyObject *list, uint8_t *out, int max, int *count) {
    PyObject *seq = PySequence_Fast(list, "expected a list of cards");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > max) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "too many cards");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (v < 0 || v >= CARDS) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "a card is a number from 0 to 51");
            return -1;
        }
        out[i] = (uint8_t)v;
    }
    *count = (int)n;
    Py_DECREF(seq);
    return 0;
}

static PyObject *py_search(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *piles_obj, *stock_obj;
    int removed;
    long long max_nodes, max_ms;
    if (!PyArg_ParseTuple(args, "OOiLL", &piles_obj, &stock_obj, &removed, &max_nodes, &max_ms))
        return NULL;
    State root;
    memset(&root, 0, sizeof root);
    root.removed = removed;
    PyObject *piles = PySequence_Fast(piles_obj, "expected a list of 7 piles");
    if (!piles) return NULL;
    if (PySequence_Fast_GET_SIZE(piles) != PILES) {
        Py_DECREF(piles);
        PyErr_SetString(PyExc_ValueError, "expected 7 piles");
        return NULL;
    }
    for (int i = 0; i < PILES; i++) {
        int down, n;
        PyObject *cards;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(piles, i), "iO", &down, &cards) ||
            read_cards(cards, root.p[i].c, CARDS, &n) < 0) {
            Py_DECREF(piles);
            return NULL;
        }
        if (down < 0 || down > n || (down && down == n)) {
            Py_DECREF(piles);
            PyErr_SetString(PyExc_ValueError, "a pile's face-down count does not fit");
            return NULL;
        }
        root.p[i].n = (uint8_t)n;
        root.p[i].down = (uint8_t)down;
    }
    Py_DECREF(piles);
    uint8_t stock[CARDS];
    int stock_size;
    if (read_cards(stock_obj, stock, CARDS, &stock_size) < 0) return NULL;
    root.stock = stock_size;
    for (int i = 0; i < PILES; i++) pile_hash_full(&root, i);

    Table table;
    if (table_alloc(&table, TABLE_MIN_BITS) < 0) table.slots = NULL;
    Frame *frames = malloc(sizeof(Frame) * MAX_DEPTH);
    MoveRec *moves = malloc(sizeof(MoveRec) * (size_t)MOVE_POOL);
    MoveRec *line = malloc(sizeof(MoveRec) * MAX_DEPTH);
    if (!table.slots || !frames || !moves || !line) {
        free(table.slots);
        free(frames);
        free(moves);
        free(line);
        return PyErr_NoMemory();
    }
    Outcome out;
    Py_BEGIN_ALLOW_THREADS
    out = run_search(&root, stock, max_nodes, max_ms, frames, moves, line, &table);
    Py_END_ALLOW_THREADS
    free(table.slots);
    free(frames);
    free(moves);
    PyObject *result_line = PyList_New(out.verdict == V_WON ? out.depth : 0);
    if (!result_line) {
        free(line);
        return NULL;
    }
    if (out.verdict == V_WON) {
        for (int i = 0; i < out.depth; i++) {
            PyObject *m = Py_BuildValue("(iii)", line[i].src, line[i].dst, line[i].count);
            if (!m) {
                Py_DECREF(result_line);
                free(line);
                return NULL;
            }
            PyList_SET_ITEM(result_line, i, m);
        }
    }
    free(line);
    return Py_BuildValue("(iNL)", out.verdict, result_line, out.nodes);
}

static PyMethodDef methods[] = {
    {"search", py_search, METH_VARARGS,
     "search(piles, stock, removed, max_nodes, max_ms) -> (verdict, line, nodes)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_spiderette_native",
    "The Spiderette solver's compiled search core.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__spiderette_native(void) {
    init_keys();
    return PyModule_Create(&module);
}
