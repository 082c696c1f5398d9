/*
 * The transposition table of the Steps search core (steps.c, which includes it): exact
 * 256-bit canonical keys (steps.c's key_of; the top bit marks a taken slot) with open
 * addressing and linear probing. It starts at 2^16 keys and doubles, in zeroed memory
 * (calloc), up to 2^TABLE_BITS (4,194,304 keys, 128 MB); then it fills to nine tenths
 * and the search answers unknown. A growth looks at the search's deadline while its keys
 * move, so that it cannot overrun the budget.
 */
#ifndef STEPS_TABLE_H
#define STEPS_TABLE_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#define TABLE_BITS 22
#define TABLE_SIZE (1u << TABLE_BITS)
#define TABLE_START (1u << 16)

typedef struct {
    uint64_t w[4];
} Key;

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

typedef struct {
    Key *slots;
    uint32_t count, mask;
    double deadline; /* now_ms() time a growth stops at (0: none), as the search does */
} Table;

static uint64_t mix64(uint64_t x) {
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    return x ^ x >> 31;
}

static uint32_t hash_of(Key k) {
    uint64_t h = mix64(k.w[0]);
    h = mix64(h ^ k.w[1]);
    h = mix64(h ^ k.w[2]);
    h = mix64(h ^ k.w[3]);
    return (uint32_t)h;
}

/* Doubles the table (rehashing every key); 0 when out of memory, at the maximum or past
   the deadline (looked at while the keys move: the search then stops at its own next
   look at the clock, with the table as it was). */
static int table_grow(Table *t) {
    uint32_t size = (t->mask + 1) * 2;
    if (size > TABLE_SIZE) return 0;
    Key *slots = calloc(size, sizeof(Key));
    if (!slots) return 0;
    for (uint32_t i = 0; i <= t->mask; i++) {
        if (t->deadline > 0 && i % (1u << 14) == 0 && now_ms() > t->deadline) {
            free(slots);
            return 0;
        }
        Key k = t->slots[i];
        if (!(k.w[3] >> 63)) continue;
        uint32_t j = hash_of(k) & (size - 1);
        while (slots[j].w[3] >> 63) j = (j + 1) & (size - 1);
        slots[j] = k;
    }
    free(t->slots);
    t->slots = slots;
    t->mask = size - 1;
    return 1;
}

/* 1 if the key was new (and is now in), 0 if it was there, -1 if the table is full. */
static int table_add(Table *t, Key k) {
    uint32_t size = t->mask + 1;
    if (t->count >= size / 4 * 3 && !table_grow(t) && t->count >= size / 10 * 9) return -1;
    uint32_t i = hash_of(k) & t->mask;
    for (;;) {
        Key *e = &t->slots[i];
        if (!(e->w[3] >> 63)) {
            *e = k;
            t->count++;
            return 1;
        }
        if (e->w[0] == k.w[0] && e->w[1] == k.w[1] && e->w[2] == k.w[2] && e->w[3] == k.w[3])
            return 0;
        i = (i + 1) & t->mask;
    }
}

#endif
