/*
 * The transposition table of the Klondike and Kingsley search core (klondike.c, which
 * includes it): exact 24-byte keys of canonical positions (klondike.c's key_from), each
 * in a 32-byte slot with the talon pointers its position was seen with. Open addressing
 * with linear probing, at most three quarters full. It starts small and doubles as the
 * search needs it, in memory the kernel zeroes page by page as it is first touched, so a
 * search pays for the table it uses and never for its budget; emptied by a new
 * generation number rather than by clearing its memory; the largest table's memory kept
 * for the process's next search.
 */
#ifndef KLONDIKE_TABLE_H
#define KLONDIKE_TABLE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

#define MIN_CAPACITY (1u << 16) /* 2 MB: the whole table of most searches */
#define MAX_CAPACITY (1u << 23)
#define HUGE_PAGE ((size_t)1 << 21)
#define HUGE_FROM (1u << 18)  /* slots (8 MB) from which a table asks for huge pages */
#define GROW_CHECK (1u << 14) /* slots a growth moves between two looks at the clock */

typedef struct {
    uint64_t w[3];
} Key;

/* A slot is taken when the high half of its word is the table's generation; the low
   half holds the pointers its position was seen with, as a bit mask. Emptying a table
   is then a new generation, not a pass over its memory. */
typedef struct {
    Key key;
    uint64_t word;
} Slot;

typedef struct {
    Slot *slots;
    size_t capacity;     /* a power of two */
    size_t count;
    size_t block;        /* the slots its memory holds (capacity or more) */
    uint64_t generation; /* 1 or more while in use; 0 is every fresh slot's */
} Table;

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static uint64_t mix(uint64_t h) { /* splitmix64's finaliser */
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebull;
    return h ^ (h >> 31);
}

static uint64_t hash_of(const Key *key) { /* the words mixed independently, then once */
    uint64_t a = key->w[0] * 0x9e3779b97f4a7c15ull ^ key->w[1] * 0xc2b2ae3d27d4eb4full;
    uint64_t b = key->w[2] * 0x165667b19e3779f9ull;
    return mix(a ^ (b << 32 | b >> 32));
}

static int keys_equal(const Key *a, const Key *b) {
    return a->w[0] == b->w[0] && a->w[1] == b->w[1] && a->w[2] == b->w[2];
}

/* Memory for count slots, all zero: fresh pages, which the kernel zeroes as each is
   first touched, so that nothing is cleared up front and a short search touches only
   the pages it uses. A large table asks for huge pages (aligned to one), as its lookups
   go all over it. NULL when there is none. */
static Slot *slots_map(size_t count) {
    size_t bytes = count * sizeof(Slot);
    size_t extra = count >= HUGE_FROM ? HUGE_PAGE : 0;
    char *mapped = mmap(NULL, bytes + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                        -1, 0);
    if (mapped == MAP_FAILED) return NULL;
    if (!extra) return (Slot *)mapped;
    char *start = (char *)(((uintptr_t)mapped + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (start > mapped) munmap(mapped, (size_t)(start - mapped));
    if (mapped + extra > start) munmap(start + bytes, (size_t)(mapped + extra - start));
#ifdef MADV_HUGEPAGE
    madvise(start, bytes, MADV_HUGEPAGE);
#endif
    return (Slot *)start;
}

static void slots_unmap(Slot *slots, size_t count) {
    if (slots) munmap(slots, count * sizeof(Slot));
}

static int is_taken(const Table *table, const Slot *slot) {
    return slot->word >> 32 == table->generation;
}

static uint64_t pointers_of(const Table *table, const Slot *slot) {
    return is_taken(table, slot) ? (uint32_t)slot->word : 0;
}

/* Double the table: 1, or 0 when there is no memory for it, or -1 when the deadline
   (a now_ms() time; negative for none) passed while its positions were moved, which the
   clock is looked at between, so that a growth near the end cannot overrun the budget. */
static int table_grow(Table *table, double deadline) {
    size_t capacity = table->capacity * 2;
    Slot *slots = slots_map(capacity);
    if (!slots) return 0;
    for (size_t i = 0; i < table->capacity; i++) {
        if (deadline >= 0 && i % GROW_CHECK == 0 && now_ms() > deadline) {
            slots_unmap(slots, capacity);
            return -1;
        }
        const Slot *old = &table->slots[i];
        if (!is_taken(table, old)) continue;
        size_t at = hash_of(&old->key) & (capacity - 1);
        while (slots[at].word) at = (at + 1) & (capacity - 1);
        slots[at].key = old->key;
        slots[at].word = 1ull << 32 | (uint32_t)old->word;
    }
    slots_unmap(table->slots, table->block);
    table->slots = slots;
    table->capacity = table->block = capacity;
    table->generation = 1;
    return 1;
}

/* Empty the table: a new generation (the memory cleared only when they run out). */
static void table_clear(Table *table) {
    if (table->generation == UINT32_MAX) {
        memset(table->slots, 0, table->block * sizeof(Slot));
        table->generation = 0;
    }
    table->generation++;
    table->count = 0;
}

/* The memory of the largest table a search of this process has used, kept for the next
   search: memory already touched costs nothing to reuse, where fresh memory costs a page
   fault and the zeroing of each page. Taken and given back only with the GIL held. */
static Slot *spare_slots;
static size_t spare_block;
static uint64_t spare_generation;

/* Give the table its memory, empty (with the GIL held): the whole spare when there is
   one, else MIN_CAPACITY slots of fresh memory; 0 when there is none. */
static int table_open(Table *table) {
    if (spare_slots) {
        table->slots = spare_slots;
        table->capacity = table->block = spare_block;
        table->generation = spare_generation;
        spare_slots = NULL;
    } else {
        table->slots = slots_map(MIN_CAPACITY);
        if (!table->slots) return 0;
        table->capacity = table->block = MIN_CAPACITY;
        table->generation = 0;
    }
    table_clear(table);
    return 1;
}

/* Keep the table's memory as the spare when it is the largest yet, else give it back
   (with the GIL held). */
static void table_close(Table *table) {
    if (!table->slots) return;
    if (spare_slots && spare_block > table->block) {
        slots_unmap(table->slots, table->block);
    } else {
        slots_unmap(spare_slots, spare_block);
        spare_slots = table->slots;
        spare_block = table->block;
        spare_generation = table->generation;
    }
    table->slots = NULL;
}

/* The slot of the key (whose hash_of is hash): where it is, or the empty slot where it
   would go. */
static Slot *table_slot(const Table *table, const Key *key, uint64_t hash) {
    size_t at = hash & (table->capacity - 1);
    while (is_taken(table, &table->slots[at]) && !keys_equal(&table->slots[at].key, key))
        at = (at + 1) & (table->capacity - 1);
    return &table->slots[at];
}

/* Mark the slot's position (key) seen with the pointer. */
static void table_add(Table *table, Slot *slot, const Key *key, int pointer) {
    if (!is_taken(table, slot)) {
        slot->key = *key;
        slot->word = table->generation << 32;
        table->count++;
    }
    slot->word |= 1ull << pointer;
}

#endif
