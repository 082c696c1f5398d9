/*
 * The compiled core of the Klondike and Kingsley solvers: the search of
 * games/engine/solvers/klondike_search.py step for step (the same moves in the same
 * order, the same automatic moves, the same canonical positions in the transposition
 * table, the same node count), only faster. Read that module's docstring for the
 * techniques; the comments here only say how the C differs in form. The moves are in
 * klondike_moves.h, the transposition table in klondike_table.h.
 *
 *     search(downs, ups, found, talon, pointer, draw, recycle,
 *            max_nodes, max_ms, max_states) -> (verdict, path, nodes)
 *
 * downs and ups are 7 tuples of card numbers (suit * 13 + rank - 1, suits S H D C),
 * bottom first; found the 4 foundation heights; talon (at most 24 cards) the waste
 * (bottom first) then the stock in drawing order; pointer the waste's size; max_nodes
 * and max_ms are -1 for no limit. verdict is 1 won, 0 lost, -1 unknown; path the won
 * line as (kind, a, b, count) moves, which the Python side turns into the notation.
 *
 * Memory is bounded: the table (klondike_table.h) holds at most max_states positions
 * (then the answer is unknown), the path at most MAX_DEPTH frames; everything is freed
 * on every exit but the largest table's memory, kept for the process's next search.
 * Memory grows with the search, never with the budget: max_ms only sets the deadline,
 * which counts from the call.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PILES 7
#define RUN 13
#define KING 12
#define CARDS 52
#define TALON 24
#define MAX_MOVES 1024
#define MAX_DEPTH 200000
#define TIME_CHECK 1024

#include "klondike_table.h"

enum { TOP_TO_FOUNDATION = 0, TALON_TO_FOUNDATION = 1, TALON_TO_PILE = 2, PILE_TO_PILE = 3 };
enum { V_WON = 1, V_LOST = 0, V_UNKNOWN = -1 };

typedef struct {
    uint8_t up[PILES][RUN];
    uint8_t nup[PILES];
    uint8_t ndown[PILES];
    uint8_t found[4];
    uint8_t talon[TALON]; /* cards only ever leave the 24 dealt there */
    uint8_t ntalon;
    uint8_t pointer;
    uint32_t words[PILES]; /* each pile's pile_word, kept up to date by its changes */
} State;

typedef struct {
    uint8_t kind, a, b, count;
} Move;

/* What a move leads to, worked out when its frame is pushed: whether it wins, its key
   and hash, whose table slot is then prefetched, so that the lookups of a frame's
   children (most of them positions already seen) wait on memory together rather than
   one after the other; the position itself only where working out the key needed it
   (made), else when the child is expanded. The search itself is unchanged. */
typedef struct {
    State state; /* made only when needed (made) */
    Key key;
    uint64_t hash;
    int pointer; /* canonical */
    int won;
    int made;
    int back; /* the move back to the parent's position, which is in the table */
} Child;

typedef struct {
    State state;
    size_t first; /* index of its first move in the shared move stack */
    int count;
    int cursor;
} Frame;

typedef struct {
    uint8_t downs[PILES][CARDS];
    int draw;
    int recycle;
    int strict; /* part of a run moves only when the card it uncovers goes home */
    uint64_t dominators[CARDS + 1]; /* klondike_search.dominators, for each pointer */
    uint8_t aligned[TALON + 1];     /* whether each pointer is a multiple of the draw count */
    /* For is_dead, worked out once from the face-down cards: for each pile and count k,
       the first k face-down cards (a mask) and the lowest rank of each suit among them;
       for the k-th face-down card, the foundation heights from which it blocks a card
       under it for ever (above 13 where it never does). */
    uint64_t below[PILES][CARDS + 1];
    uint8_t lowest[PILES][CARDS + 1][4];
    uint8_t blocked_from[PILES][CARDS][4];
} Deal;

/* Each card's suit and rank, looked up rather than divided out (filled in by the module's
   init). */
static uint8_t SUITS[CARDS], RANKS[CARDS];

static int suit_of(int card) { return SUITS[card]; }
static int rank_of(int card) { return RANKS[card]; }
static uint8_t REDS[CARDS];
static int is_red(int card) { return REDS[card]; }
static int twin_of(int card) { return (3 - suit_of(card)) * RUN + rank_of(card); }

static int is_safe(int card, const uint8_t *found) {
    int rank = rank_of(card) + 1;
    int first, second;
    if (suit_of(card) == 0 || suit_of(card) == 3) {
        first = 1;
        second = 2;
    } else {
        first = 0;
        second = 3;
    }
    if (rank <= 2 || (found[first] >= rank - 1 && found[second] >= rank - 1)) return 1;
    return found[first] >= rank - 2 && found[second] >= rank - 2 &&
           found[3 - suit_of(card)] >= rank - 3;
}

static int goes_home(int card, const uint8_t *found) { return found[suit_of(card)] == rank_of(card); }

static int reachable(int pointer, int length, int draw, int recycle, int *out) {
    int n = 0;
    if (pointer > 0) out[n++] = pointer;
    int position = pointer + draw;
    while (position < length) {
        out[n++] = position;
        position += draw;
    }
    if (length > pointer) out[n++] = length;
    if (recycle) {
        position = draw;
        while (position < length) {
            if (position < pointer || (position - pointer) % draw) out[n++] = position;
            position += draw;
        }
    }
    return n;
}

static int canonical_pointer(const Deal *deal, int pointer, int length) {
    if (deal->recycle && (deal->aligned[pointer] || pointer == length)) return 0;
    return pointer;
}

static uint64_t dominators(int pointer, int draw, int recycle) {
    if (!recycle) return 1ull << pointer;
    if (pointer == 0) return ~0ull;
    uint64_t mask = 0;
    for (int earlier = pointer % draw; earlier <= pointer; earlier += draw) mask |= 1ull << earlier;
    return mask;
}

/* Positions */

/* A pile in 25 bits: its face-down count, its run's length, the run's head and, for each
   card on the head, which suit of its colour it is (the rest follows from the building
   rule). */
static uint32_t word_of(uint32_t down, const uint8_t *up, uint32_t length) {
    uint32_t word = (down << 22) | (length << 18);
    if (length) {
        word |= (uint32_t)up[0] << 12;
        for (uint32_t t = 1; t < length; t++)
            if (suit_of(up[t]) >= 2) word |= 1u << (t - 1);
    }
    return word;
}

static uint32_t pile_word(const State *s, int index) {
    return word_of(s->ndown[index], s->up[index], s->nup[index]);
}

/* The canonical position in 191 bits: a pile with face-down cards at its own place, the
   piles without in the other places in sorted order, then the foundations. */
static Key key_from(const uint32_t *pile_words, const uint8_t *ndown, const uint8_t *heights) {
    uint32_t words[PILES], loose[PILES];
    int nloose = 0;
    for (int i = 0; i < PILES; i++) {
        uint32_t word = pile_words[i];
        if (ndown[i]) {
            words[i] = word;
            continue;
        }
        int j = nloose++;
        while (j > 0 && loose[j - 1] > word) {
            loose[j] = loose[j - 1];
            j--;
        }
        loose[j] = word;
    }
    for (int i = 0, j = 0; i < PILES; i++)
        if (!ndown[i]) words[i] = loose[j++];
    uint64_t found = (uint64_t)heights[0] | ((uint64_t)heights[1] << 4) |
                     ((uint64_t)heights[2] << 8) | ((uint64_t)heights[3] << 12);
    Key key;
    key.w[0] = (uint64_t)words[0] | ((uint64_t)words[1] << 25) | ((uint64_t)(words[6] & 0x3fff) << 50);
    key.w[1] = (uint64_t)words[2] | ((uint64_t)words[3] << 25) |
               (((uint64_t)(words[6] >> 14) | ((found & 7) << 11)) << 50);
    key.w[2] = (uint64_t)words[4] | ((uint64_t)words[5] << 25) | ((found >> 3) << 50);
    return key;
}

static Key key_of(const State *s) { return key_from(s->words, s->ndown, s->found); }

#include "klondike_moves.h"

/* The search */

typedef struct {
    Frame *frames;
    size_t depth, frames_capacity;
    Move *moves;
    Child *children; /* beside moves, one for each */
    size_t nmoves, moves_capacity;
    Table table;
} Work;

static void work_free(Work *w) {
    free(w->frames);
    free(w->moves);
    free(w->children);
    table_close(&w->table);
}

static int due_and_safe(int card, const uint8_t *found) {
    return goes_home(card, found) && is_safe(card, found);
}

/* A pile's word with count cards put on its length cards (word_of's layout). */
static uint32_t word_put(uint32_t word, uint32_t down, const uint8_t *cards, int length,
                         int count) {
    if (!length) return word_of(down, cards, (uint32_t)count);
    word = (word & ~(0xfu << 18)) | (uint32_t)(length + count) << 18;
    for (int k = 0; k < count; k++)
        if (suit_of(cards[k]) >= 2) word |= 1u << (length + k - 1);
    return word;
}

/* What a move onto a pile leads to (its key, pointer and whether it wins) worked out
   without making the position, when no card goes home by it or after it: most of a
   node's moves, and most of them lead to positions already seen. 0 for the others,
   whose position is made. The position s has had its automatic moves made, so only a
   card the move uncovers or brings up can go home after it. */
static int child_of_move(const Deal *deal, const State *s, Move m, Child *c) {
    if (m.kind == TOP_TO_FOUNDATION || m.kind == TALON_TO_FOUNDATION) return 0;
    uint32_t words[PILES];
    uint8_t ndown[PILES];
    memcpy(words, s->words, sizeof words);
    memcpy(ndown, s->ndown, sizeof ndown);
    int pointer = s->pointer, ntalon = s->ntalon;
    if (m.kind == PILE_TO_PILE) {
        int left = s->nup[m.a] - m.count;
        if (left) {
            if (due_and_safe(s->up[m.a][left - 1], s->found)) return 0;
            uint32_t kept = (1u << (left - 1)) - 1; /* the suit bits of the cards left */
            words[m.a] = (words[m.a] & ~(0xfu << 18) & ~0xfffu) | (words[m.a] & kept) |
                         (uint32_t)left << 18;
        } else if (ndown[m.a]) {
            uint8_t turned = deal->downs[m.a][--ndown[m.a]];
            if (due_and_safe(turned, s->found)) return 0;
            words[m.a] = word_of(ndown[m.a], &turned, 1);
        } else {
            words[m.a] = 0;
        }
        words[m.b] = word_put(words[m.b], ndown[m.b], &s->up[m.a][left], s->nup[m.b], m.count);
    } else {
        uint8_t card = s->talon[m.a - 1];
        if (due_and_safe(card, s->found)) return 0;
        pointer = m.a - 1;
        ntalon--;
        if (deal->draw == 1 && pointer > 0 && due_and_safe(s->talon[pointer - 1], s->found))
            return 0;
        words[m.b] = word_put(words[m.b], ndown[m.b], &card, s->nup[m.b], 1);
    }
    c->won = !ntalon;
    for (int i = 0; i < PILES && c->won; i++)
        if (ndown[i]) c->won = 0;
    c->key = key_from(words, ndown, s->found);
    c->pointer = canonical_pointer(deal, pointer, ntalon);
    c->made = 0;
    return 1;
}

/* Push a frame for state s with its moves; 0 when memory ran out. back, when not NULL, is
   the move that leads back to the parent's position exactly (a run moved off a face-up
   card with nothing going home), a position in the table: its child is not worked out. */
static int push(Work *w, const Deal *deal, const State *position, const Move *back) {
    if (w->depth == w->frames_capacity) {
        size_t capacity = w->frames_capacity ? w->frames_capacity * 2 : 256;
        Frame *frames = realloc(w->frames, capacity * sizeof(Frame));
        if (!frames) return 0;
        w->frames = frames;
        w->frames_capacity = capacity;
    }
    Frame *f = &w->frames[w->depth];
    f->state = *position; /* before the children move below: position may lie in them */
    if (w->nmoves + MAX_MOVES > w->moves_capacity) {
        size_t capacity = w->moves_capacity ? w->moves_capacity * 2 : 8192;
        while (capacity < w->nmoves + MAX_MOVES) capacity *= 2;
        Move *moves = realloc(w->moves, capacity * sizeof(Move));
        if (!moves) return 0;
        w->moves = moves;
        Child *children = realloc(w->children, capacity * sizeof(Child));
        if (!children) return 0;
        w->children = children;
        w->moves_capacity = capacity;
    }
    w->depth++;
    const State *s = &f->state;
    f->first = w->nmoves;
    f->count = generate(deal, s, &w->moves[w->nmoves]);
    order(s, &w->moves[w->nmoves], f->count);
    for (int i = 0; i < f->count; i++) {
        Child *c = &w->children[w->nmoves + (size_t)i];
        Move m = w->moves[w->nmoves + (size_t)i];
        c->back = back && m.kind == PILE_TO_PILE && m.a == back->a && m.b == back->b &&
                  m.count == back->count;
        if (c->back) continue;
        if (!child_of_move(deal, s, m, c)) {
            apply(deal, s, m, &c->state);
            c->made = 1;
            c->won = is_won(&c->state);
            c->key = key_of(&c->state);
            c->pointer =
                canonical_pointer(deal, c->state.pointer, c->state.ntalon);
        }
        if (c->won) break; /* the search stops at this move */
        c->hash = hash_of(&c->key);
        __builtin_prefetch(&w->table.slots[c->hash & (w->table.capacity - 1)]);
    }
    f->cursor = 0;
    w->nmoves += (size_t)f->count;
    return 1;
}

static int run(const Deal *deal, const State *root, long long max_nodes, double deadline,
               long long max_states, Work *w, long long *nodes) {
    *nodes = 1;
    w->depth = 0;
    w->nmoves = 0;
    if (is_won(root)) return V_WON;
    Key key = key_of(root);
    table_add(&w->table, table_slot(&w->table, &key, hash_of(&key)), &key,
              canonical_pointer(deal, root->pointer, root->ntalon));
    if (!push(w, deal, root, NULL)) return V_UNKNOWN;
    /* The clock is looked at every TIME_CHECK steps of the loop, whatever they do
       (expanding, skipping a position seen, going back), so nothing can starve it. */
    unsigned steps = 0;
    while (w->depth) {
        if (deadline >= 0 && ++steps % TIME_CHECK == 0 && now_ms() > deadline) return V_UNKNOWN;
        Frame *f = &w->frames[w->depth - 1];
        if (f->cursor == f->count) {
            w->nmoves = f->first;
            w->depth--;
            continue;
        }
        size_t at = f->first + (size_t)f->cursor++;
        Child *c = &w->children[at];
        if (c->back) continue;
        if (c->won) return V_WON;
        Slot *slot = table_slot(&w->table, &c->key, c->hash);
        if (pointers_of(&w->table, slot) & (deal->strict ? ~0ull : deal->dominators[c->pointer]))
            continue;
        if ((max_nodes >= 0 && *nodes >= max_nodes) || (long long)w->table.count >= max_states)
            return V_UNKNOWN;
        if (w->table.count * 4 >= w->table.capacity * 3 ||
            (w->table.count * 2 >= w->table.capacity && w->table.capacity < MAX_CAPACITY)) {
            if (w->table.capacity >= MAX_CAPACITY || table_grow(&w->table, deadline) <= 0)
                return V_UNKNOWN;
            slot = table_slot(&w->table, &c->key, c->hash);
        }
        table_add(&w->table, slot, &c->key, c->pointer);
        (*nodes)++;
        Move m = w->moves[at];
        Move back = {PILE_TO_PILE, m.b, m.a, m.count};
        int reversible = !c->made && m.kind == PILE_TO_PILE && f->state.nup[m.a] > m.count;
        if (!c->made) apply(deal, &f->state, m, &c->state);
        if (w->depth >= MAX_DEPTH || !push(w, deal, &c->state, reversible ? &back : NULL))
            return V_UNKNOWN;
    }
    return V_LOST;
}

/* Reading the arguments */

static int read_cards(PyObject *seq, uint8_t *out, Py_ssize_t limit, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > limit) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: too many cards", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long card = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (card == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (card < 0 || card >= CARDS) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "%s: a card number is 0 to 51", what);
            return -1;
        }
        out[i] = (uint8_t)card;
    }
    Py_DECREF(fast);
    return (int)n;
}

static int read_piles(PyObject *seq, uint8_t rows[PILES][CARDS], uint8_t *lengths, Py_ssize_t limit,
                      const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return 0;
    if (PySequence_Fast_GET_SIZE(fast) != PILES) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: 7 piles", what);
        return 0;
    }
    for (int i = 0; i < PILES; i++) {
        int n = read_cards(PySequence_Fast_GET_ITEM(fast, i), rows[i], limit, what);
        if (n < 0) {
            Py_DECREF(fast);
            return 0;
        }
        lengths[i] = (uint8_t)n;
    }
    Py_DECREF(fast);
    return 1;
}

static PyObject *search(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *downs_arg, *ups_arg, *found_arg, *talon_arg;
    int pointer, draw, recycle;
    long long max_nodes, max_ms, max_states;
    if (!PyArg_ParseTuple(args, "OOOOiipLLL", &downs_arg, &ups_arg, &found_arg, &talon_arg,
                          &pointer, &draw, &recycle, &max_nodes, &max_ms, &max_states))
        return NULL;
    Deal deal;
    State root;
    memset(&deal, 0, sizeof deal);
    memset(&root, 0, sizeof root);
    uint8_t ups[PILES][CARDS];
    uint8_t nups[PILES];
    if (!read_piles(downs_arg, deal.downs, root.ndown, CARDS, "downs")) return NULL;
    if (!read_piles(ups_arg, ups, nups, RUN, "ups")) return NULL;
    for (int i = 0; i < PILES; i++) {
        memcpy(root.up[i], ups[i], nups[i]);
        root.nup[i] = nups[i];
    }
    uint8_t found[CARDS];
    if (read_cards(found_arg, found, 4, "found") != 4) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "found: 4 heights");
        return NULL;
    }
    for (int i = 0; i < 4; i++) {
        if (found[i] > RUN) {
            PyErr_SetString(PyExc_ValueError, "found: heights are 0 to 13");
            return NULL;
        }
        root.found[i] = found[i];
    }
    int ntalon = read_cards(talon_arg, root.talon, TALON, "talon");
    if (ntalon < 0) return NULL;
    root.ntalon = (uint8_t)ntalon;
    if (pointer < 0 || pointer > ntalon || draw < 1 || draw > CARDS) {
        PyErr_SetString(PyExc_ValueError, "pointer or draw out of range");
        return NULL;
    }
    root.pointer = (uint8_t)pointer;
    for (int i = 0; i < PILES; i++) root.words[i] = pile_word(&root, i);
    deal.draw = draw;
    deal.recycle = recycle;
    for (int p = 0; p <= CARDS; p++) deal.dominators[p] = dominators(p, draw, recycle);
    for (int p = 0; p <= TALON; p++) deal.aligned[p] = p % draw == 0;
    deal_prepare_is_dead(&deal, root.ndown);
    if (max_states < 1 || max_states > (long long)(MAX_CAPACITY / 4 * 3)) {
        PyErr_SetString(PyExc_ValueError, "max_states out of range");
        return NULL;
    }

    Work w;
    memset(&w, 0, sizeof w);
    long long nodes = 0;
    int verdict;
    int opened = table_open(&w.table);
    Py_BEGIN_ALLOW_THREADS
    double deadline = max_ms >= 0 ? now_ms() + (double)max_ms : -1.0;
    automatic(&deal, &root);
    /* As klondike_search.Search.solve: the narrower search first, the whole space only
       when the narrower one holds no win. */
    deal.strict = 1;
    verdict = opened ? run(&deal, &root, max_nodes, deadline, max_states, &w, &nodes) : V_UNKNOWN;
    if (verdict == V_LOST) {
        long long first = nodes;
        if (max_nodes >= 0 && max_nodes - first < 1) {
            verdict = V_UNKNOWN;
        } else {
            deal.strict = 0;
            table_clear(&w.table);
            verdict = run(&deal, &root, max_nodes >= 0 ? max_nodes - first : -1, deadline,
                          max_states, &w, &nodes);
            nodes += first;
        }
    }
    Py_END_ALLOW_THREADS

    PyObject *path = PyList_New(0);
    if (!path) {
        work_free(&w);
        return NULL;
    }
    if (verdict == V_WON) {
        for (size_t d = 0; d < w.depth; d++) {
            const Frame *f = &w.frames[d];
            Move m = w.moves[f->first + (size_t)f->cursor - 1];
            PyObject *item = Py_BuildValue("(iiii)", m.kind, m.a, m.b, m.count);
            if (!item || PyList_Append(path, item) < 0) {
                Py_XDECREF(item);
                Py_DECREF(path);
                work_free(&w);
                return NULL;
            }
            Py_DECREF(item);
        }
    }
    work_free(&w);
    return Py_BuildValue("(iNL)", verdict, path, nodes);
}

static PyMethodDef methods[] = {
    {"search", search, METH_VARARGS,
     "search(downs, ups, found, talon, pointer, draw, recycle, max_nodes, max_ms, max_states)"
     " -> (verdict, path, nodes)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_klondike_native",
    "The compiled search core of the Klondike and Kingsley solvers.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__klondike_native(void) {
    for (int card = 0; card < CARDS; card++) {
        SUITS[card] = (uint8_t)(card / RUN);
        RANKS[card] = (uint8_t)(card % RUN);
        REDS[card] = SUITS[card] == 1 || SUITS[card] == 2;
    }
    return PyModule_Create(&module);
}
