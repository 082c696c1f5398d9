/*
 * The transposition table of the Spiderette search core (spiderette.c, which includes
 * it): 128-bit position hashes (b == 0 marks an empty slot) with open addressing and
 * linear probing, at most three quarters full. It starts at 2^TABLE_MIN_BITS slots and
 * doubles, in zeroed memory (calloc), up to 2^TABLE_MAX_BITS (256 MiB); then the pass
 * answers unknown. A growth looks at the pass's deadline while its positions move, so
 * that it cannot overrun the budget.
 */
#ifndef SPIDERETTE_TABLE_H
#define SPIDERETTE_TABLE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TABLE_MIN_BITS 16
#define TABLE_MAX_BITS 24

typedef struct {
    uint64_t a, b;
} Hash2;

typedef struct {
    uint64_t a, b; /* a position's hash pair; b == 0: an empty slot */
} Slot;

typedef struct {
    Slot *slots;
    uint64_t mask;
    uint64_t used;
    uint64_t limit;  /* 3/4 of the slots */
    int bits;
    double deadline; /* now_ms() time a growth gives up at (0: none), as the pass does */
} Table;

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static int table_alloc(Table *t, int bits) {
    t->slots = calloc((size_t)1 << bits, sizeof(Slot));
    if (!t->slots) return -1;
    t->bits = bits;
    t->mask = ((uint64_t)1 << bits) - 1;
    t->used = 0;
    t->limit = ((uint64_t)1 << bits) / 4 * 3;
    return 0;
}

static void table_put(Table *t, Hash2 h) {
    uint64_t i = h.a & t->mask;
    while (t->slots[i].b) i = (i + 1) & t->mask;
    t->slots[i].a = h.a;
    t->slots[i].b = h.b;
    t->used++;
}

/* Doubles the table (up to TABLE_MAX_BITS); -1 when it cannot, or when the deadline
   passes while its positions move (the pass then answers unknown, as out of time). */
static int table_grow(Table *t) {
    if (t->bits >= TABLE_MAX_BITS) return -1;
    Table bigger;
    if (table_alloc(&bigger, t->bits + 1) < 0) return -1;
    bigger.deadline = t->deadline;
    for (uint64_t i = 0; i <= t->mask; i++) {
        if (t->deadline > 0 && i % (1u << 14) == 0 && now_ms() >= t->deadline) {
            free(bigger.slots);
            return -1;
        }
        if (t->slots[i].b) {
            Hash2 h = {t->slots[i].a, t->slots[i].b};
            table_put(&bigger, h);
        }
    }
    free(t->slots);
    *t = bigger;
    return 0;
}

static int table_present(const Table *t, Hash2 h) {
    uint64_t i = h.a & t->mask;
    while (t->slots[i].b) {
        if (t->slots[i].a == h.a && t->slots[i].b == h.b) return 1;
        i = (i + 1) & t->mask;
    }
    return 0;
}

/* Inserts a position known to be absent: 0, or -1 when the table is full. */
static int table_insert(Table *t, Hash2 h) {
    if (t->used >= t->limit && table_grow(t) < 0) return -1;
    table_put(t, h);
    return 0;
}

static void table_clear(Table *t) {
    if (t->used) memset(t->slots, 0, (size_t)(t->mask + 1) * sizeof(Slot));
    t->used = 0;
}

#endif
