/*
 * The moves of the Klondike and Kingsley search core (klondike.c, which includes it after
 * its positions): playing a move, the automatic moves, the dead-position test, the
 * moves of a position and the order they are tried in, each as klondike_search.py does
 * it. It reads klondike.c's types (State, Move, Deal) and card helpers.
 */
#ifndef KLONDIKE_MOVES_H
#define KLONDIKE_MOVES_H

static int is_won(const State *s) {
    if (s->found[0] + s->found[1] + s->found[2] + s->found[3] == CARDS) return 1;
    if (s->ntalon) return 0;
    for (int i = 0; i < PILES; i++)
        if (s->ndown[i]) return 0;
    return 1;
}

static void lift(const Deal *deal, State *s, int index, int count) {
    s->nup[index] = (uint8_t)(s->nup[index] - count);
    if (!s->nup[index] && s->ndown[index]) {
        s->ndown[index]--;
        s->up[index][0] = deal->downs[index][s->ndown[index]];
        s->nup[index] = 1;
    }
    s->words[index] = pile_word(s, index);
}

static void take_talon(State *s, int position) {
    memmove(&s->talon[position - 1], &s->talon[position], (size_t)(s->ntalon - position));
    s->ntalon--;
    s->pointer = (uint8_t)(position - 1);
}

static void automatic(const Deal *deal, State *s) {
again:
    if (deal->draw == 1 && s->pointer > 0) {
        int card = s->talon[s->pointer - 1];
        if (goes_home(card, s->found) && is_safe(card, s->found)) {
            s->found[suit_of(card)]++;
            take_talon(s, s->pointer);
            goto again;
        }
    }
    for (int i = 0; i < PILES; i++) {
        if (!s->nup[i]) continue;
        int card = s->up[i][s->nup[i] - 1];
        if (goes_home(card, s->found) && is_safe(card, s->found)) {
            s->found[suit_of(card)]++;
            lift(deal, s, i, 1);
            goto again;
        }
    }
}

static void apply(const Deal *deal, const State *from, Move m, State *to) {
    *to = *from;
    if (m.kind == TOP_TO_FOUNDATION) {
        to->found[suit_of(to->up[m.a][to->nup[m.a] - 1])]++;
        lift(deal, to, m.a, 1);
    } else if (m.kind == PILE_TO_PILE) {
        int start = to->nup[m.a] - m.count;
        memcpy(&to->up[m.b][to->nup[m.b]], &to->up[m.a][start], m.count);
        to->nup[m.b] = (uint8_t)(to->nup[m.b] + m.count);
        to->words[m.b] = pile_word(to, m.b);
        lift(deal, to, m.a, m.count);
    } else {
        int card = to->talon[m.a - 1];
        take_talon(to, m.a);
        if (m.kind == TALON_TO_FOUNDATION) {
            to->found[suit_of(card)]++;
        } else {
            to->up[m.b][to->nup[m.b]++] = (uint8_t)card;
            to->words[m.b] = pile_word(to, m.b);
        }
    }
    automatic(deal, to);
}

static void add(Move *out, int *n, int kind, int a, int b, int count) {
    Move m = {(uint8_t)kind, (uint8_t)a, (uint8_t)b, (uint8_t)count};
    out[(*n)++] = m;
}

static int top_of(const State *s, int i) { return s->up[i][s->nup[i] - 1]; }

/* Whether card e, lying over the cards in below (a mask), blocks one of them for ever:
   a card of its suit and lower rank is below it, so it cannot go home first, and it is
   not a King and both cards it could be built on are home or below it too. */
static int blocks(int e, uint64_t below, const uint8_t *min_below, const uint8_t *found) {
    int rank = rank_of(e);
    if (rank == KING || min_below[suit_of(e)] >= rank) return 0;
    int first = (suit_of(e) == 0 || suit_of(e) == 3) ? 1 : 0;
    int second = first ? 2 : 3;
    int p1 = first * RUN + rank + 1, p2 = second * RUN + rank + 1;
    return (found[first] > rank + 1 || ((below >> p1) & 1)) &&
           (found[second] > rank + 1 || ((below >> p2) & 1));
}

static void deal_prepare_is_dead(Deal *deal, const uint8_t *ndown) {
    for (int i = 0; i < PILES; i++) {
        deal->below[i][0] = 0;
        memset(deal->lowest[i][0], RUN, 4);
        for (int k = 0; k < ndown[i]; k++) {
            int e = deal->downs[i][k], rank = rank_of(e);
            uint8_t *from = deal->blocked_from[i][k];
            memset(from, 0, 4);
            if (!k || rank == KING || deal->lowest[i][k][suit_of(e)] >= rank) {
                from[0] = RUN + 1;
            } else {
                int first = (suit_of(e) == 0 || suit_of(e) == 3) ? 1 : 0;
                int second = first ? 2 : 3;
                if (!((deal->below[i][k] >> (first * RUN + rank + 1)) & 1))
                    from[first] = (uint8_t)(rank + 2);
                if (!((deal->below[i][k] >> (second * RUN + rank + 1)) & 1))
                    from[second] = (uint8_t)(rank + 2);
            }
            deal->below[i][k + 1] = deal->below[i][k] | 1ull << e;
            memcpy(deal->lowest[i][k + 1], deal->lowest[i][k], 4);
            if (rank < deal->lowest[i][k + 1][suit_of(e)])
                deal->lowest[i][k + 1][suit_of(e)] = (uint8_t)rank;
        }
    }
}

/* A position that cannot be won because some card must leave from over a card of its
   suit and lower rank and has nowhere to go: in a pile (face-down cards and the run's
   head over face-down cards) or, with no recycle, in the waste. */
static int is_dead(const Deal *deal, const State *s) {
    const uint8_t *found = s->found;
    for (int i = 0; i < PILES; i++) {
        int down = s->ndown[i];
        if (!down) continue;
        for (int k = 1; k < down; k++) {
            const uint8_t *from = deal->blocked_from[i][k];
            if (found[0] >= from[0] && found[1] >= from[1] && found[2] >= from[2] &&
                found[3] >= from[3])
                return 1;
        }
        if (s->nup[i] && blocks(s->up[i][0], deal->below[i][down], deal->lowest[i][down], found))
            return 1;
    }
    if (!deal->recycle) {
        uint8_t min_below[4];
        uint64_t below = 0;
        memset(min_below, RUN, sizeof min_below);
        for (int k = 0; k < s->pointer; k++) {
            int e = s->talon[k];
            if (k && blocks(e, below, min_below, found)) return 1;
            below |= 1ull << e;
            if (rank_of(e) < min_below[suit_of(e)]) min_below[suit_of(e)] = (uint8_t)rank_of(e);
        }
    }
    return 0;
}

/* Whether the card is face up in a pile other than the one at index. */
static int face_up_elsewhere(const State *s, int card, int index) {
    for (int i = 0; i < PILES; i++)
        if (i != index)
            for (int u = 0; u < s->nup[i]; u++)
                if (s->up[i][u] == card) return 1;
    return 0;
}

static int in_talon_reach(const State *s, int card, const int *reach, int nreach) {
    for (int r = 0; r < nreach; r++)
        if (s->talon[reach[r] - 1] == card) return 1;
    return 0;
}

static int generate(const Deal *deal, const State *s, Move *out) {
    if (is_dead(deal, s)) return 0;
    int reach[2 * CARDS + 2];
    int nreach = reachable(s->pointer, s->ntalon, deal->draw, deal->recycle, reach);
    int n = 0;
    for (int i = 0; i < PILES; i++)
        if (s->nup[i] && goes_home(top_of(s, i), s->found)) add(out, &n, TOP_TO_FOUNDATION, i, 0, 0);
    for (int r = 0; r < nreach; r++)
        if (goes_home(s->talon[reach[r] - 1], s->found))
            add(out, &n, TALON_TO_FOUNDATION, reach[r], 0, 0);
    int empty = -1;
    for (int i = 0; i < PILES; i++)
        if (!s->nup[i] && !s->ndown[i]) {
            empty = i;
            break;
        }
    uint8_t wanted[CARDS]; /* the piles whose top takes each card, as a mask */
    memset(wanted, 0, sizeof wanted);
    for (int t = 0; t < PILES; t++) {
        if (!s->nup[t]) continue;
        int onto = top_of(s, t);
        if (!rank_of(onto)) continue;
        int first = is_red(onto) ? 0 : 1, second = is_red(onto) ? 3 : 2;
        wanted[first * RUN + rank_of(onto) - 1] |= (uint8_t)(1u << t);
        wanted[second * RUN + rank_of(onto) - 1] |= (uint8_t)(1u << t);
    }
    /* Whole runs off face-down cards, the pile with most face-down cards first. */
    int order[PILES];
    for (int i = 0; i < PILES; i++) {
        int j = i;
        while (j > 0 && s->ndown[order[j - 1]] < s->ndown[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    for (int o = 0; o < PILES; o++) {
        int i = order[o];
        if (!s->ndown[i] || !s->nup[i]) continue;
        int head = s->up[i][0];
        if (rank_of(head) == KING) {
            if (empty >= 0) add(out, &n, PILE_TO_PILE, i, empty, s->nup[i]);
            continue;
        }
        for (unsigned mask = wanted[head] & ~(1u << i); mask; mask &= mask - 1)
            add(out, &n, PILE_TO_PILE, i, __builtin_ctz(mask), s->nup[i]);
    }
    int king_in_talon = 0;
    for (int r = 0; r < nreach; r++) {
        int card = s->talon[reach[r] - 1];
        if (rank_of(card) == KING) {
            king_in_talon = 1;
            if (empty >= 0) add(out, &n, TALON_TO_PILE, reach[r], empty, 0);
            continue;
        }
        for (unsigned mask = wanted[card]; mask; mask &= mask - 1)
            add(out, &n, TALON_TO_PILE, reach[r], __builtin_ctz(mask), 0);
    }
    int king_ready = king_in_talon;
    for (int i = 0; i < PILES && !king_ready; i++)
        if (s->ndown[i] && s->nup[i] && rank_of(s->up[i][0]) == KING) king_ready = 1;
    if (king_ready) {
        for (int i = 0; i < PILES; i++) {
            if (s->ndown[i] || !s->nup[i] || rank_of(s->up[i][0]) == KING) continue;
            for (unsigned mask = wanted[s->up[i][0]] & ~(1u << i); mask; mask &= mask - 1)
                add(out, &n, PILE_TO_PILE, i, __builtin_ctz(mask), s->nup[i]);
        }
    }
    /* Part of a run: the card at depth d of a run has the head's colour when d is even
       (runs alternate), and goes on a top of the other colour one rank higher; the piles
       whose top is of each colour and rank, as masks. */
    uint8_t tops[2][RUN];
    memset(tops, 0, sizeof tops);
    for (int t = 0; t < PILES; t++)
        if (s->nup[t]) tops[is_red(top_of(s, t))][rank_of(top_of(s, t))] |= (uint8_t)(1u << t);
    for (int i = 0; i < PILES; i++) {
        int length = s->nup[i];
        if (length < 2) continue;
        int bottom = rank_of(s->up[i][0]), head_red = is_red(s->up[i][0]);
        unsigned targets = 0;
        for (int depth = 1; depth < length; depth++)
            targets |= tops[!(head_red ^ (depth & 1))][bottom - depth + 1];
        for (targets &= ~(1u << i); targets; targets &= targets - 1) {
            int t = __builtin_ctz(targets);
            int depth = bottom - rank_of(top_of(s, t)) + 1;
            int uncovered = s->up[i][depth - 1];
            int twin = twin_of(s->up[i][depth]);
            if (goes_home(uncovered, s->found) ||
                (!deal->strict &&
                 (face_up_elsewhere(s, twin, i) || in_talon_reach(s, twin, reach, nreach))))
                add(out, &n, PILE_TO_PILE, i, t, length - depth);
        }
    }
    return n;
}

/* The order in which a node's moves are tried (klondike_search.priority): a stable
   sort, highest first. */
static int priority(const State *s, Move m) {
    switch (m.kind) {
    case TOP_TO_FOUNDATION:
        return 16 * (s->nup[m.a] == 1 && s->ndown[m.a] ? 100 + s->ndown[m.a] : 50);
    case TALON_TO_FOUNDATION:
        return 16 * 40;
    case TALON_TO_PILE:
        return 16 * 30 + 15 - s->nup[m.b];
    default:
        if (m.count == s->nup[m.a]) return 16 * (s->ndown[m.a] ? 100 + s->ndown[m.a] : 20);
        return 16 * 10;
    }
}

static void order(const State *s, Move *moves, int n) {
    int keys[MAX_MOVES];
    for (int i = 0; i < n; i++) {
        Move m = moves[i];
        int k = priority(s, m);
        int j = i;
        while (j > 0 && keys[j - 1] < k) {
            moves[j] = moves[j - 1];
            keys[j] = keys[j - 1];
            j--;
        }
        moves[j] = m;
        keys[j] = k;
    }
}

#endif
