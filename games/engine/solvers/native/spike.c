/*
 * The Spike solver's compiled search core: games.engine.solvers._spike_native.
 *
 * The same search as games/engine/solvers/spike.py (its docstring describes it), node
 * for node: the same positions, pruning, move order and transposition-table capacity,
 * so both paths give the same verdict, line and node count under a node budget.
 *
 *   search(ranks: bytes[28], stock: bytes, top: int, wild_used: bool,
 *          max_nodes: int, max_ms: int, capacity: int) -> (verdict, line, nodes)
 *
 * ranks: each position's rank 0 (Ace) to 12 (King), 255 where the card is gone; stock:
 * the stock's ranks, the last drawn first; top: the waste's top rank, 13 for the wild
 * card; max_nodes, max_ms: the budget, 0 for no limit; capacity: the lost positions each
 * of the table's two generations remembers at most (from 1). verdict: 0 lost, 1 won,
 * 2 unknown; line: the winning moves as numbers (0 to 27 play that position's card, 28
 * draws, 29 plays the wild card).
 *
 * The search holds no Python object and runs without the GIL. Its memory is bounded: the
 * table has two generations of at most `capacity` lost positions each (when the newer is
 * full, the older is dropped), each growing by doubling up to twice its capacity (32
 * bytes a remembered position at most), and is freed before the call returns.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CARDS 28
#define RANKS 13
#define WILD_TOP 13
#define DRAW_CODE 28
#define WILD_CODE 29
#define MAX_STOCK 24
#define MAX_LINE 64
#define CLOCK_EVERY 256
#define GONE 255
#define FIRST_SLOTS 4096
#define OCCUPIED (UINT64_C(1) << 63)

enum { LOST = 0, WON = 1, UNKNOWN = 2 };
enum { SEARCH_LOST = 0, SEARCH_WON = 1, SEARCH_STOPPED = -1 };

/* The layout, as games/engine/spike.py builds it: five spikes of 2, 3, 4, 3 and 2 rows;
 * row r of a spike holds r + 1 cards, each covered by the two just below it. */
static const int SPIKE_ROWS[] = {2, 3, 4, 3, 2};
#define SPIKES 5

static uint32_t cover_mask[CARDS]; /* the positions that must be gone to expose one */
static uint32_t under_mask[CARDS]; /* the positions a card covers directly */
static uint32_t above_mask[CARDS]; /* the positions a card covers, directly or not */
static uint32_t spike_mask[CARDS]; /* the positions of a card's spike */

/* For each mask of ranks left on the spikes, the catchment (the arc and the ranks next to
 * it) of each arc of them: spike.py's catchments. At most 6 arcs in 13 ranks. */
#define ALL_RANKS ((1u << RANKS) - 1u)
#define MAX_ARCS 6
static uint16_t arc_catchments[1 << RANKS][MAX_ARCS];
static uint8_t arc_count[1 << RANKS];

static void build_catchments(void) {
    for (unsigned present = 0; present <= ALL_RANKS; present++) {
        arc_count[present] = 0;
        if (present == ALL_RANKS) {
            arc_catchments[present][arc_count[present]++] = (uint16_t)ALL_RANKS;
            continue;
        }
        int gap = 0;
        while (present >> gap & 1) {
            gap++;
        }
        unsigned arc = 0;
        for (int step = 1; step <= RANKS; step++) {
            int rank = (gap + step) % RANKS;
            if (present >> rank & 1) {
                arc |= 1u << rank | 1u << (rank + 1) % RANKS | 1u << (rank + RANKS - 1) % RANKS;
            } else if (arc) {
                arc_catchments[present][arc_count[present]++] = (uint16_t)arc;
                arc = 0;
            }
        }
    }
}

static void build_layout(void) {
    int spike_of[CARDS], row_of[CARDS], column_of[CARDS];
    int place = 0;
    for (int spike = 0; spike < SPIKES; spike++) {
        for (int row = 0; row < SPIKE_ROWS[spike]; row++) {
            for (int column = 0; column <= row; column++) {
                spike_of[place] = spike;
                row_of[place] = row;
                column_of[place] = column;
                place++;
            }
        }
    }
    for (int a = 0; a < CARDS; a++) {
        cover_mask[a] = under_mask[a] = spike_mask[a] = 0;
        for (int b = 0; b < CARDS; b++) {
            if (spike_of[b] != spike_of[a]) {
                continue;
            }
            spike_mask[a] |= UINT32_C(1) << b;
            int shift = column_of[b] - column_of[a];
            if (row_of[b] == row_of[a] + 1 && (shift == 0 || shift == 1)) {
                cover_mask[a] |= UINT32_C(1) << b;
            }
            if (row_of[b] == row_of[a] - 1 && (shift == 0 || shift == -1)) {
                under_mask[a] |= UINT32_C(1) << b;
            }
        }
    }
    /* A card's upper neighbours have smaller positions: fill from the top of each spike. */
    for (int a = 0; a < CARDS; a++) {
        uint32_t mask = 0;
        for (int b = 0; b < a; b++) {
            if (under_mask[a] >> b & 1) {
                mask |= (UINT32_C(1) << b) | above_mask[b];
            }
        }
        above_mask[a] = mask;
    }
}

typedef struct {
    int ranks[CARDS];
    int stock[MAX_STOCK];
    uint32_t rank_mask[RANKS];
    uint32_t playable_on[RANKS + 1];
    uint32_t free_neighbours[CARDS];
    uint16_t stock_neighbour_ranks[MAX_STOCK + 1];
    uint8_t stock_counts[MAX_STOCK + 1][RANKS];
    uint16_t stock_ranks[MAX_STOCK + 1];
    uint64_t *table, *older;
    size_t slots, count, older_slots, capacity, max_slots;
    unsigned long long nodes, max_nodes;
    struct timespec deadline;
    int has_deadline;
    int out_of_memory;
    int line[MAX_LINE];
    int line_length;
} Search;

static int up_of(int rank) { return (rank + 1) % RANKS; }
static int down_of(int rank) { return (rank + RANKS - 1) % RANKS; }
static uint32_t lowest(uint32_t mask) { return mask & (~mask + 1u); }

static uint64_t mix(uint64_t key) {
    key ^= key >> 30;
    key *= UINT64_C(0xbf58476d1ce4e5b9);
    key ^= key >> 27;
    key *= UINT64_C(0x94d049bb133111eb);
    return key ^ (key >> 31);
}

static int generation_contains(const uint64_t *table, size_t slots, uint64_t key) {
    if (table == NULL) {
        return 0;
    }
    uint64_t stored = key | OCCUPIED;
    size_t at = (size_t)mix(key) & (slots - 1);
    while (table[at]) {
        if (table[at] == stored) {
            return 1;
        }
        at = (at + 1) & (slots - 1);
    }
    return 0;
}

static int table_contains(const Search *s, uint64_t key) {
    return generation_contains(s->table, s->slots, key) ||
           generation_contains(s->older, s->older_slots, key);
}

static void table_put(uint64_t *table, size_t slots, uint64_t stored) {
    size_t at = (size_t)mix(stored & ~OCCUPIED) & (slots - 1);
    while (table[at]) {
        at = (at + 1) & (slots - 1);
    }
    table[at] = stored;
}

/* Remember a lost position; a full generation becomes the older one. */
static void table_add(Search *s, uint64_t key) {
    if (2 * (s->count + 1) > s->slots && s->slots < s->max_slots) {
        size_t slots = 2 * s->slots;
        uint64_t *table = calloc(slots, sizeof *table);
        if (table == NULL) {
            s->out_of_memory = 1;
            return;
        }
        for (size_t at = 0; at < s->slots; at++) {
            if (s->table[at]) {
                table_put(table, slots, s->table[at]);
            }
        }
        free(s->table);
        s->table = table;
        s->slots = slots;
    }
    table_put(s->table, s->slots, key | OCCUPIED);
    s->count++;
    if (s->count >= s->capacity) {
        uint64_t *table = calloc(FIRST_SLOTS, sizeof *table);
        if (table == NULL) {
            s->out_of_memory = 1;
            return;
        }
        free(s->older);
        s->older = s->table;
        s->older_slots = s->slots;
        s->table = table;
        s->slots = FIRST_SLOTS;
        s->count = 0;
    }
}

static int past_deadline(const Search *s) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > s->deadline.tv_sec ||
           (now.tv_sec == s->deadline.tv_sec && now.tv_nsec >= s->deadline.tv_nsec);
}

/* Whether the arcs of ranks left need more chain starts than there can be (spike.py's
 * too_few_starts). */
static int too_few_starts(const Search *s, unsigned present, int stock, int top, int wild_used) {
    int any_start = (top == WILD_TOP) + !wild_used;
    unsigned top_rank = top == WILD_TOP ? 0u : 1u << top;
    unsigned ranks_to_come = s->stock_ranks[stock];
    unsigned both = 0;
    int wild_only = 0;
    int arcs = arc_count[present];
    for (int i = 0; i < arcs; i++) {
        unsigned arc = arc_catchments[present][i];
        both |= arc;
        if (!(arc & (ranks_to_come | top_rank))) {
            wild_only++;
        }
    }
    if (wild_only > any_start) {
        return 1;
    }
    int starts = any_start + ((both & top_rank) != 0);
    for (int rank = 0; rank < RANKS; rank++) {
        if (both >> rank & 1) {
            starts += s->stock_counts[stock][rank];
        }
    }
    return arcs > starts;
}

/* Whether the chains cannot be started or the wild card is asked for more than it can
 * give (see spike.py's hopeless). */
static int hopeless(const Search *s, uint32_t remaining, uint32_t exposed, int stock, int top,
                    int wild_used) {
    unsigned present = 0;
    for (int rank = 0; rank < RANKS; rank++) {
        if (remaining & s->rank_mask[rank]) {
            present |= 1u << rank;
        }
    }
    if (arc_count[present] > 1 && too_few_starts(s, present, stock, top, wild_used)) {
        return 1;
    }
    /* The ranks that no stock card can start; each one locked, or each card stranded,
     * asks for the wild card. */
    unsigned lonely = present & ~(unsigned)s->stock_neighbour_ranks[stock];
    int demands = 0;
    int met_now = 0; /* whether the one demand is an exposed card (for a wild on the waste) */
    while (lonely) {
        int rank = __builtin_ctz(lonely);
        lonely &= lonely - 1u;
        uint32_t cards = remaining & s->rank_mask[rank];
        int top_fits = top == up_of(rank) || top == down_of(rank);
        int stranded = 0;
        uint32_t shadow = 0; /* the cards above this rank's cards */
        for (uint32_t left = cards; left; left &= left - 1u) {
            uint32_t low = lowest(left);
            int place = __builtin_ctz(low);
            shadow |= above_mask[place];
            if ((remaining & s->free_neighbours[place]) || (top_fits && (exposed & low))) {
                continue;
            }
            stranded++;
            met_now = (exposed & low) != 0;
        }
        if (stranded) {
            demands += stranded;
        } else {
            if ((top_fits && (cards & exposed)) || (remaining & s->playable_on[rank] & ~shadow)) {
                continue;
            }
            demands++;
            met_now = (cards & exposed) != 0;
        }
        if (demands > 1) {
            return 1;
        }
    }
    if (!demands || !wild_used) {
        return 0;
    }
    return !(top == WILD_TOP && met_now);
}

typedef struct {
    int opened, height, place;
    uint32_t left, exposed;
} Option;

static int search(Search *s, uint32_t remaining, uint32_t exposed, int stock, int top,
                  int wild_used);

static int push_and_search(Search *s, int code, uint32_t remaining, uint32_t exposed, int stock,
                           int top, int wild_used) {
    s->line[s->line_length++] = code;
    int result = search(s, remaining, exposed, stock, top, wild_used);
    if (result != SEARCH_WON) {
        s->line_length--;
    }
    return result;
}

static int search(Search *s, uint32_t remaining, uint32_t exposed, int stock, int top,
                  int wild_used) {
    if (!remaining) {
        return SEARCH_WON;
    }
    /* The canonical key of spike.py: the cards the top takes now stand for the top. */
    uint64_t key = (uint64_t)remaining | (uint64_t)stock << 28 | (uint64_t)wild_used << 33 |
                   (uint64_t)(exposed & s->playable_on[top]) << 34;
    if (table_contains(s, key)) {
        return SEARCH_LOST;
    }
    if (s->out_of_memory || (s->max_nodes && s->nodes >= s->max_nodes)) {
        return SEARCH_STOPPED;
    }
    s->nodes++;
    if (s->has_deadline && s->nodes % CLOCK_EVERY == 0 && past_deadline(s)) {
        return SEARCH_STOPPED;
    }
    if (!hopeless(s, remaining, exposed, stock, top, wild_used)) {
        Option options[CARDS];
        int count = 0;
        uint32_t playable = exposed & s->playable_on[top];
        while (playable) {
            uint32_t low = lowest(playable);
            playable ^= low;
            int place = __builtin_ctz(low);
            uint32_t left = remaining ^ low;
            uint32_t opened = 0;
            for (uint32_t above = under_mask[place]; above; above ^= lowest(above)) {
                int at = __builtin_ctz(above);
                if ((left >> at & 1) && !(left & cover_mask[at])) {
                    opened |= UINT32_C(1) << at;
                }
            }
            Option option = {__builtin_popcount(opened),
                             __builtin_popcount(remaining & spike_mask[place]), place, left,
                             (exposed ^ low) | opened};
            /* Stable insertion: more cards opened first, then the fuller spike. */
            int at = count++;
            while (at > 0 && (options[at - 1].opened < option.opened ||
                              (options[at - 1].opened == option.opened &&
                               options[at - 1].height < option.height))) {
                options[at] = options[at - 1];
                at--;
            }
            options[at] = option;
        }
        for (int i = 0; i < count; i++) {
            const Option *option = &options[i];
            int result = push_and_search(s, option->place, option->left, option->exposed, stock,
                                         s->ranks[option->place], wild_used);
            if (result != SEARCH_LOST) {
                return result;
            }
        }
        if (stock) {
            int result = push_and_search(s, DRAW_CODE, remaining, exposed, stock - 1,
                                         s->stock[stock - 1], wild_used);
            if (result != SEARCH_LOST) {
                return result;
            }
        }
        if (!wild_used) {
            int result = push_and_search(s, WILD_CODE, remaining, exposed, stock, WILD_TOP, 1);
            if (result != SEARCH_LOST) {
                return result;
            }
        }
    }
    table_add(s, key);
    return s->out_of_memory ? SEARCH_STOPPED : SEARCH_LOST;
}

static int prepare(Search *s, const unsigned char *ranks, const unsigned char *stock,
                   Py_ssize_t stock_length, long long max_nodes, long long max_ms,
                   long long capacity) {
    memset(s, 0, sizeof *s);
    for (int place = 0; place < CARDS; place++) {
        s->ranks[place] = ranks[place] == GONE ? -1 : ranks[place];
        if (s->ranks[place] >= 0) {
            s->rank_mask[s->ranks[place]] |= UINT32_C(1) << place;
        }
    }
    for (int rank = 0; rank < RANKS; rank++) {
        s->playable_on[rank] = s->rank_mask[up_of(rank)] | s->rank_mask[down_of(rank)];
    }
    s->playable_on[WILD_TOP] = (UINT32_C(1) << CARDS) - 1;
    for (int place = 0; place < CARDS; place++) {
        int rank = s->ranks[place];
        s->free_neighbours[place] = rank < 0 ? 0 : s->playable_on[rank] & ~above_mask[place];
    }
    int counts[RANKS] = {0};
    for (Py_ssize_t i = 0; i < stock_length; i++) {
        s->stock[i] = stock[i];
        counts[stock[i]]++;
        s->stock_ranks[i + 1] = (uint16_t)(s->stock_ranks[i] | 1u << stock[i]);
        for (int rank = 0; rank < RANKS; rank++) {
            if (counts[up_of(rank)] + counts[down_of(rank)] > 0) {
                s->stock_neighbour_ranks[i + 1] |= (uint16_t)(1u << rank);
            }
            s->stock_counts[i + 1][rank] = (uint8_t)counts[rank];
        }
    }
    s->max_nodes = (unsigned long long)max_nodes;
    if (max_ms > 0) {
        clock_gettime(CLOCK_MONOTONIC, &s->deadline);
        s->deadline.tv_sec += (time_t)(max_ms / 1000);
        s->deadline.tv_nsec += (long)(max_ms % 1000) * 1000000L;
        if (s->deadline.tv_nsec >= 1000000000L) {
            s->deadline.tv_sec++;
            s->deadline.tv_nsec -= 1000000000L;
        }
        s->has_deadline = 1;
    }
    s->capacity = (size_t)capacity;
    s->max_slots = FIRST_SLOTS;
    while (s->max_slots < 2 * s->capacity) {
        s->max_slots *= 2;
    }
    s->slots = FIRST_SLOTS;
    s->table = calloc(s->slots, sizeof *s->table);
    return s->table != NULL;
}

static PyObject *spike_search(PyObject *module, PyObject *args) {
    (void)module;
    const unsigned char *ranks, *stock;
    Py_ssize_t ranks_length, stock_length;
    int top, wild_used;
    long long max_nodes, max_ms, capacity;
    if (!PyArg_ParseTuple(args, "y#y#ipLLL", &ranks, &ranks_length, &stock, &stock_length, &top,
                          &wild_used, &max_nodes, &max_ms, &capacity)) {
        return NULL;
    }
    if (ranks_length != CARDS) {
        PyErr_SetString(PyExc_ValueError, "ranks must hold the 28 spike positions");
        return NULL;
    }
    for (int place = 0; place < CARDS; place++) {
        if (ranks[place] >= RANKS && ranks[place] != GONE) {
            PyErr_SetString(PyExc_ValueError, "a rank is 0 to 12, or 255 for a gone card");
            return NULL;
        }
    }
    if (stock_length > MAX_STOCK) {
        PyErr_SetString(PyExc_ValueError, "the stock holds at most 24 cards");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < stock_length; i++) {
        if (stock[i] >= RANKS) {
            PyErr_SetString(PyExc_ValueError, "a stock rank is 0 to 12");
            return NULL;
        }
    }
    if (top < 0 || top > WILD_TOP) {
        PyErr_SetString(PyExc_ValueError, "the top is a rank 0 to 12, or 13 for the wild card");
        return NULL;
    }
    if (max_nodes < 0 || max_ms < 0 || capacity < 1 || capacity > (1LL << 30)) {
        PyErr_SetString(PyExc_ValueError, "the budget is a count from 0 up (0: no limit), the capacity from 1");
        return NULL;
    }
    Search *s = malloc(sizeof *s);
    if (s == NULL || !prepare(s, ranks, stock, stock_length, max_nodes, max_ms, capacity)) {
        free(s);
        return PyErr_NoMemory();
    }
    uint32_t remaining = 0, exposed = 0;
    for (int place = 0; place < CARDS; place++) {
        if (s->ranks[place] >= 0) {
            remaining |= UINT32_C(1) << place;
        }
    }
    for (int place = 0; place < CARDS; place++) {
        if ((remaining >> place & 1) && !(remaining & cover_mask[place])) {
            exposed |= UINT32_C(1) << place;
        }
    }
    int result;
    Py_BEGIN_ALLOW_THREADS
    result = search(s, remaining, exposed, (int)stock_length, top, wild_used);
    Py_END_ALLOW_THREADS
    free(s->table);
    free(s->older);
    int out_of_memory = s->out_of_memory;
    unsigned long long nodes = s->nodes;
    int line_length = result == SEARCH_WON ? s->line_length : 0;
    int line[MAX_LINE];
    memcpy(line, s->line, sizeof line);
    free(s);
    if (out_of_memory) {
        return PyErr_NoMemory();
    }
    PyObject *moves = PyTuple_New(line_length);
    if (moves == NULL) {
        return NULL;
    }
    for (int i = 0; i < line_length; i++) {
        PyObject *code = PyLong_FromLong(line[i]);
        if (code == NULL) {
            Py_DECREF(moves);
            return NULL;
        }
        PyTuple_SET_ITEM(moves, i, code);
    }
    int verdict = result == SEARCH_WON ? WON : result == SEARCH_LOST ? LOST : UNKNOWN;
    return Py_BuildValue("(iNK)", verdict, moves, nodes);
}

static PyMethodDef spike_methods[] = {
    {"search", spike_search, METH_VARARGS,
     "search(ranks, stock, top, wild_used, max_nodes, max_ms, capacity) -> "
     "(verdict, line, nodes): the Spike solver's search (games/engine/solvers/spike.py)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef spike_module = {
    PyModuleDef_HEAD_INIT,
    "_spike_native",
    "The Spike solver's compiled search core (games/engine/solvers/spike.py).",
    -1,
    spike_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__spike_native(void) {
    build_layout();
    build_catchments();
    return PyModule_Create(&spike_module);
}
