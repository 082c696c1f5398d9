/*
 * The transposition table of the Klondike and Kingsley search core (klondike.c, which
 * includes it): exact 24-byte keys of canonical positions (klondike.c's key_from), each
 * in a 32-byte slot with the talon pointers its position was seen with. Open addressing
 * with linear probing, at most three quarters full; emptied by a new generation number
 * rather than by clearing its memory; the largest table's memory kept for the process's
 * next search.
 */
#ifndef KLONDIKE_TABLE_H
#define KLONDIKE_TABLE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define MIN_CAPACITY (1u << 16)
#define POSITIONS_PER_MS 2000 /* about what the search expands here, for first_capacity */
#define MAX_CAPACITY (1u << 23)

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
    size_t capacity;
    size_t count;
    size_t first_capacity; /* the capacity it is made with (first_capacity) */
    size_t block;          /* the slots its memory holds (capacity or more) */
    uint64_t generation;   /* 1 or more while in use; 0 is every fresh slot's */
} Table;

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

/* Zeroed slots; a large table asks for huge pages, as its lookups go all over it. */
static Slot *slots_new(size_t capacity) {
    void *memory = NULL;
    size_t bytes = capacity * sizeof(Slot);
    if (posix_memalign(&memory, (size_t)1 << 21, bytes)) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(memory, bytes, MADV_HUGEPAGE);
#endif
    memset(memory, 0, bytes);
    return memory;
}

static int is_taken(const Table *table, const Slot *slot) {
    return slot->word >> 32 == table->generation;
}

static uint64_t pointers_of(const Table *table, const Slot *slot) {
    return is_taken(table, slot) ? (uint32_t)slot->word : 0;
}

static int table_grow(Table *table) {
    size_t capacity = table->capacity * 2;
    Slot *slots = slots_new(capacity);
    if (!slots) return 0;
    for (size_t i = 0; i < table->capacity; i++) {
        const Slot *old = &table->slots[i];
        if (!is_taken(table, old)) continue;
        size_t at = hash_of(&old->key) & (capacity - 1);
        while (slots[at].word) at = (at + 1) & (capacity - 1);
        slots[at].key = old->key;
        slots[at].word = 1ull << 32 | (uint32_t)old->word;
    }
    free(table->slots);
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

/* The memory of the largest table a search of this process has freed, kept for the next
   search: clearing memory already mapped costs a fraction of what fresh memory costs
   (the kernel zeroes it page by page as it is first touched, which took a third of a
   one-second search here). Taken and given back only with the GIL held. */
static Slot *spare_slots;
static size_t spare_block;
static uint64_t spare_generation;

/* Take the spare memory for the table when it is large enough (with the GIL held). */
static void table_reserve(Table *table) {
    if (spare_slots && spare_block >= table->first_capacity) {
        table->slots = spare_slots;
        table->block = spare_block;
        table->generation = spare_generation;
        spare_slots = NULL;
    }
}

/* Make the table empty with its first capacity, in the memory reserved or in new memory;
   0 when there is none. */
static int table_open(Table *table) {
    if (!table->slots) {
        table->slots = slots_new(table->first_capacity);
        if (!table->slots) return 0;
        table->block = table->first_capacity;
        table->generation = 0;
    }
    table->capacity = table->first_capacity;
    table_clear(table);
    return 1;
}

/* Keep the table's memory as the spare when it is the largest yet, else free it. */
static void table_close(Table *table) {
    if (!table->slots) return;
    if (spare_slots && spare_block > table->block) {
        free(table->slots);
    } else {
        free(spare_slots);
        spare_slots = table->slots;
        spare_block = table->block;
        spare_generation = table->generation;
    }
    table->slots = NULL;
}

/* The capacity a search's table starts with: room (half full) for the positions its
   budget lets it reach, so that a long search does not stop to grow its table (the
   growth is the costliest step, a fresh table's memory being zeroed by the kernel); one
   that outgrows it still doubles it. */
static size_t first_capacity(long long max_nodes, long long max_ms, long long max_states) {
    long long expected = max_states;
    if (max_nodes >= 0 && max_nodes < expected) expected = max_nodes;
    if (max_ms >= 0 && max_ms * POSITIONS_PER_MS < expected) expected = max_ms * POSITIONS_PER_MS;
    size_t capacity = MIN_CAPACITY;
    while (capacity < MAX_CAPACITY && (long long)capacity < 2 * expected) capacity *= 2;
    return capacity;
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
