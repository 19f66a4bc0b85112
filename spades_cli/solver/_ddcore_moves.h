/* The double-dummy search core (``_ddcore.c``): its types, the value's range and the moves. */
/* Included once, in order, by _ddcore.c (one translation unit). */

typedef uint64_t u64;

/* Cards are slot cards (solver/deck.py): suit * 16 + slot, the slots of a suit ranked as
 * their numbers whatever the deck, so a hand is one 64-bit mask. */
#define SUIT(c) ((c) >> 4)
#define RANK(c) ((c) & 15)
#define NSLOTS 64
#define MAXT 17 /* the most tricks of a hand (R-CT-1: 17 cards to each of three seats) */
#define MAXH 18 /* room for the cards of one hand */
/* The play rules, as spades_cli/engine/play.py hands them over: for each situation (bit 0
 * a card was led, bit 1 the hand's first trick, bit 2 spades not broken), the masks its
 * restrictions keep, in order (0: the suit led). */
#define SITUATIONS 8
#define MAX_KEEPS 4

static const u64 SUIT_MASK[4] = {0xFFFFULL, 0xFFFFULL << 16, 0xFFFFULL << 32, 0xFFFFULL << 48};

/* Positions are grouped in buckets: the same hand lengths per suit, leader and flags
 * (and code, in table mode). An entry keeps bounds valid for every position of its bucket
 * whose top cards of each suit, down to the number its shape says, have the owners of
 * its pattern (partition search), and the best card found there. A bucket lists the
 * shapes its entries have, so a probe looks up one entry a shape. */
typedef struct {
    u64 lens, pa, pb;
    uint32_t meta;
    uint16_t shape;
    uint8_t used; /* the table's epoch when valid */
    int8_t best; /* relative: suit * 16 + remaining cards above it; -1 none */
    double lo, hi; /* count mode: lo <= counted tricks to come <= hi; table: lo <= value < hi */
} PEntry;

#define NSHAPES 32
typedef struct {
    u64 lens;
    uint32_t meta;
    uint8_t count, used, pad[2];
    uint16_t shapes[NSHAPES];
} Bucket;

/* A transposition table (count mode: bounds on the counted tricks to come; table mode:
 * bounds on the value, the code so far in the key). */
typedef struct {
    Bucket *bt;
    PEntry *pt;
    u64 bt_mask, pt_mask;
    size_t bt_bytes, pt_bytes;
    int bits, max_bits; /* 2**bits entries now, at most 2**max_bits (see tables_grow) */
    uint8_t epoch;      /* a bucket or entry is valid when its ``used`` is this (see pool_put) */
    size_t filled;      /* entries made since the table was last made or grown */
} Tables;

typedef struct {
    u64 lens;
    uint32_t meta, flags; /* meta: flags and, in table mode, the code so far */
    int len[4];
    u64 own[4]; /* owners of the suit's remaining cards, two bits a card, the highest first */
    u64 rem[4]; /* the suit's remaining cards (16 bits) */
    int pshift; /* where a pattern's second suit starts (Core.pshift) */
} Layout;

/* A set of the outcomes to come (the tricks each group takes), as the bits of their
 * order (see outcome_set), with the tricks to come; ``id`` 0 marks a free slot. */
struct OutcomeSet {
    u64 bits[2];
    int left, id;
};

/* By a set's number: its bits and tricks to come, and the numbers of the sets of the
 * same tricks to come nearest it (fewest outcomes apart) within it (``sub``) and holding
 * it (``sup``), the nearest first, with how many outcomes apart. */
#define OS_REL 4
struct OutcomeRel {
    u64 bits[2];
    int left, nsub, nsup;
    int sub[OS_REL], sup[OS_REL], dsub[OS_REL], dsup[OS_REL];
};

typedef struct {
    PyObject_HEAD
    int n, side, count_mode, ngroups, radix;
    u64 keep[SITUATIONS][MAX_KEEPS];
    uint8_t keep_low[SITUATIONS][MAX_KEEPS]; /* the keep is "the lowest card of the mask" (R-F-3) */
    int nkeep[SITUATIONS];
    /* The seats as two teams (solver/deck.py): each seat's team, its mate for cashing
     * (itself alone, -1 in a team of three), and whether the teams are the partnership
     * game's (0 and 2 against 1 and 3: the heuristics for a seat counted alone). */
    int team[4], mate[4], pairs;
    int pshift; /* 26, or 32 when a suit holds more than 13 cards (2 bits a card) */
    /* The order of the cards in a trick (engine/play.py): the cards of each card's suit
     * for following, the cards that beat each card, the trumps (which also break spades,
     * R-C-6) and their suit. */
    u64 follow[NSLOTS];
    u64 beaten[NSLOTS];
    u64 trump;
    int trump_suit;
    int inc[4];
    int keen[4];
    double *table;
    Py_ssize_t table_len;
    /* table mode: by code*(MAXT+1)+left, the least and greatest value reachable for each
     * number of counted tricks to come (MAXT+1 + MAXT+1 values, made when first asked) */
    double **frange;
    size_t frange_cells;
    int alone;       /* count mode, four seats: the one seat counted (its partner not), else -1 */
    int cnt[4];      /* the counted seats (count mode: as inc; table mode: side N-S's seats) */
    int gcnt[4];     /* table mode: whether a group's tricks are counted */
    int count_ok;    /* table mode: every group within one side, so the counted tricks bound it */
    int count_side;  /* table mode: the side of the counted seats */
    int ccode;       /* the counted tricks so far */
    Tables tt;       /* this solver's own table */
    Tables *ctt;     /* bounds on the counted tricks to come: its own (count mode), a shared
                      * solver's (table mode, see share()) or none */
    PyObject *shared; /* the solver whose count table ctt is */
    u64 rel; /* the cards whose rank the last search result depended on */
    /* the position */
    u64 hands[4];
    int trick[4];
    int tlen, leader, current, broken, first, win_card, win_seat, left, code;
    u64 gone;
    /* the search */
    long long nodes, budget;
    long long tricks; /* the tricks the searches finished since the solver was made (DDS's unit) */
    int aborted, best_card, want_win;
    /* by cards played in the hand so far: the last card that made the cut there after the
     * card tried first had not (-1: none), in count mode (``killer``) and in table mode
     * (``tkiller``: the count games a table-mode search runs keep theirs apart); tried
     * first where node() says */
    signed char killer[(MAXT + 1) * 4];
    signed char tkiller[(MAXT + 1) * 4];
    /* table mode, the same depths: how often each card made the cut there after the card
     * tried first had not (a history of the question; see node()) */
    uint32_t cuts[(MAXT + 1) * 4][NSLOTS];
    /* table mode, by tricks to come: whether the question at the current trick's start
     * was kept as a set of counted tricks (see lead()) */
    uint8_t as_set[MAXT + 1];
    /* table mode: the sets of outcomes to come (see outcome_set) met so far, each by its
     * number (from 1), in an open-addressed table of ``os_cap`` slots */
    struct OutcomeSet *os_keys;
    struct OutcomeRel *os_rel; /* by number, ``os_rel_cap`` of them */
    int os_cap, os_count, os_rel_cap;
    /* by code*(MAXT+1)+left (as ``frange``): the set's number for the question asked now
     * (``os_u``), when its ``os_seen`` is ``os_asked`` */
    int *os_of;
    uint32_t *os_seen, os_asked;
    double os_u;
    volatile int stopped; /* set by stop() from another thread: the search ends at once */
} Core;

static inline int ctz64(u64 x) { return __builtin_ctzll(x); }
static inline int top64(u64 x) { return 63 - __builtin_clzll(x); }
static inline int pop64(u64 x) { return __builtin_popcountll(x); }
/* R-C-4: does ``card`` beat ``w``, the card winning the trick so far? */
static inline int beats(const Core *c, int card, int w) { return (int)(c->beaten[w] >> card & 1); }

/* -- the value's range -------------------------------------------------------------- */

static void spread_range(Core *c, int g, int left, int acc, int f, double *out) {
    if (g >= 4) return; /* never: ngroups <= 4 */
    int pw = 1;
    for (int i = 0; i < g; i++) pw *= c->radix;
    if (g == c->ngroups - 1) {
        Py_ssize_t idx = acc + left * pw;
        if (c->gcnt[g]) f += left;
        if (idx < c->table_len && f <= MAXT) {
            double v = c->table[idx];
            if (v < out[f]) out[f] = v;
            if (v > out[MAXT + 1 + f]) out[MAXT + 1 + f] = v;
        }
        return;
    }
    for (int k = 0; k <= left; k++) spread_range(c, g + 1, left - k, acc + k * pw, f + (c->gcnt[g] ? k : 0), out);
}

/* By counted tricks to come f, the least (``[f]``) and greatest (``[MAXT + 1 + f]``)
 * value reachable from ``code`` with ``left`` tricks to come (none: +inf and -inf),
 * made when first asked; NULL: out of memory (the caller then searches). */
static double *frange_at(Core *c, int code, int left) {
    size_t i = (size_t)code * (MAXT + 1) + (size_t)left;
    if (i >= c->frange_cells) return NULL;
    double *fr = c->frange[i];
    if (!fr) {
        fr = malloc(2 * (MAXT + 1) * sizeof(double));
        if (!fr) return NULL;
        for (int f = 0; f <= MAXT; f++) {
            fr[f] = INFINITY;
            fr[MAXT + 1 + f] = -INFINITY;
        }
        spread_range(c, 0, left, code, 0, fr);
        c->frange[i] = fr;
    }
    return fr;
}

/* The least and greatest value reachable from ``code`` with ``left`` tricks to come when
 * the counted tricks to come are between ``lo`` and ``hi`` (none: +inf and -inf); -1 out
 * of memory (the caller then searches). */
static int reach(Core *c, int code, int left, int lo, int hi, double *mn, double *mx) {
    double *fr = frange_at(c, code, left);
    if (!fr) return -1;
    double a = INFINITY, b = -INFINITY;
    for (int f = lo; f <= hi && f <= MAXT; f++) {
        if (fr[f] < a) a = fr[f];
        if (fr[MAXT + 1 + f] > b) b = fr[MAXT + 1 + f];
    }
    *mn = a;
    *mx = b;
    return 0;
}

/* -- moves ------------------------------------------------------------------------- */

/* The legal cards: what the first restriction of the situation that keeps a card of the
 * hand keeps (none: the whole hand), as play.legal_cards decides. */
static u64 legal_in(const Core *c, int seat, int broken) {
    u64 hand = c->hands[seat];
    int s = (c->tlen ? 1 : 0) | (c->first ? 2 : 0) | (broken ? 0 : 4);
    u64 led = c->tlen ? c->follow[c->trick[0]] : 0;
    for (int i = 0; i < c->nkeep[s]; i++) {
        u64 k = hand & (c->keep[s][i] ? c->keep[s][i] : led);
        if (c->keep_low[s][i]) k &= ~k + 1; /* its lowest card */
        if (k) return k;
    }
    return hand;
}

static inline u64 legal(Core *c, int seat) { return legal_in(c, seat, c->broken); }

/* One card of each run of equivalent cards (the lowest), low first. */
static int distinct(Core *c, int seat, u64 mask, int *out) {
    u64 avail = c->hands[seat] | c->gone;
    int m = 0, prev = -99;
    while (mask) {
        int card = ctz64(mask);
        mask &= mask - 1;
        if (prev >= 0 && SUIT(card) == SUIT(prev)) {
            u64 between = ((1ULL << card) - 1) & ~((2ULL << prev) - 1);
            if ((between & ~avail) == 0) {
                prev = card;
                continue;
            }
        }
        out[m++] = card;
        prev = card;
    }
    return m;
}

/* Whether ``seat`` holds a card that beats ``w`` in the trick in progress (following
 * suit if it can; for the move order, not a legal set). */
static inline int can_beat(const Core *c, int seat, int w) {
    u64 hand = c->hands[seat], follow = hand & c->follow[c->trick[0]];
    return ((follow ? follow : hand) & c->beaten[w]) != 0;
}

static void set_follow(Core *c, int seat) {
    int w = c->win_card;
    int n = c->n;
    int partner_wins = c->team[c->win_seat] == c->team[seat] && c->tlen > 1;
    for (int i = 1; partner_wins && i < n - c->tlen; i++) {
        int later = (seat + i) % n; /* a later hand of the other team may still beat w */
        if (c->team[later] == c->team[seat]) continue;
        if (can_beat(c, later, w)) partner_wins = 0;
    }
    c->want_win = c->keen[seat] && !partner_wins;
    if (c->count_mode && c->pairs && (c->inc[seat] != c->inc[(seat + 2) % 4] ||
                                    c->inc[(seat + 1) % 4] != c->inc[(seat + 3) % 4])) {
        /* A seat counted alone: it wants every trick it can take. Its partner lets it win;
         * it takes, for the lead, a trick the seat has lost or one the other side is
         * winning with a card the seat, still to play, cannot beat. The other side wants
         * every trick its own card does not already win safely, as a side that wants
         * tricks (the seats' figures: bench/README.md, issue 32's thirteenth round). */
        int counted = c->inc[seat] ? seat : c->inc[(seat + 2) % 4] ? (seat + 2) % 4
                                                 : c->inc[(seat + 1) % 4] ? (seat + 1) % 4 : (seat + 3) % 4;
        int to_play = (counted - c->leader + n) % n >= c->tlen; /* it has not played yet */
        if (counted == seat) {
            c->want_win = 1;
        } else if (counted % 2 == seat % 2) {
            c->want_win = to_play ? c->team[c->win_seat] != c->team[seat] && !can_beat(c, counted, w)
                                  : c->win_seat != counted;
        } else {
            c->want_win = !partner_wins;
        }
    }
}

static int follow_key(Core *c, int card, int seat) {
    int wins = beats(c, card, c->win_card);
    int group = wins == c->want_win ? 0 : 64;
    if (wins) return group + RANK(card);
    u64 others = ~c->gone & ~c->hands[seat];
    int above = pop64(others & SUIT_MASK[SUIT(card)] & ~((2ULL << card) - 1));
    if (!c->keen[seat]) return group + above;
    int spade = (c->trump >> card & 1) && !(c->trump >> c->trick[0] & 1) ? 16 : 0;
    return group + 13 - above + spade;
}

/* A lead by the side against a seat counted alone (``c->alone``; the seat itself and its
 * partner lead as a side that wants tricks: bench/README.md, issue 32's thirteenth
 * round). It cashes its winners, leads to the leader's partner's top card, other suits,
 * and last a suit the seat tops or can ruff. Low cards first within each group. */
static int alone_lead_key(Core *c, int card, int seat, u64 above) {
    int suit = SUIT(card), cat;
    u64 ah = c->hands[c->alone];
    int ruffs = suit != c->trump_suit && !(ah & SUIT_MASK[suit]) && (ah & c->trump); /* the seat ruffs it */
    int top_partner = above && (c->hands[(seat + 2) % 4] & (1ULL << top64(above)));
    if ((above && (ah & (1ULL << top64(above)))) || ruffs)
        cat = 4;
    else
        cat = !above ? 0 : top_partner ? 1 : 2;
    return cat * 16 + RANK(card);
}

static int lead_key(Core *c, int card, int seat) {
    int suit = SUIT(card);
    u64 own = c->hands[seat];
    u64 uni = ~c->gone;
    u64 sm = SUIT_MASK[suit];
    u64 above = uni & sm & ~((2ULL << card) - 1) & ~own;
    if (c->alone >= 0 && seat % 2 != c->alone % 2) return alone_lead_key(c, card, seat, above);
    if (!c->keen[seat]) return (above ? 0 : 32) + RANK(card);
    int n = c->n;
    u64 trump = c->trump;
    int ruff = 0;
    if (suit != c->trump_suit) {
        for (int s = 0; s < n; s++) {
            u64 opp = c->hands[s];
            if (c->team[s] != c->team[seat] && !(opp & sm) && (opp & trump)) ruff = 1;
        }
    }
    if (!above) return ruff ? 32 : 0;
    int mate = c->mate[seat];
    if (mate >= 0 && mate != seat) {
        u64 partner = c->hands[mate];
        if (partner & (1ULL << top64(above))) return ruff ? 33 : 16 + RANK(card);
        if (suit != c->trump_suit && !(partner & sm) && (partner & trump)) return 48 + RANK(card);
    }
    return 64 + RANK(card);
}

static int same_run(Core *c, int a, int b, int seat) {
    if (a == b) return 1;
    int lo = a < b ? a : b, hi = a < b ? b : a;
    u64 between = ((1ULL << hi) - 1) & ~((2ULL << lo) - 1);
    return (between & ~(c->hands[seat] | c->gone)) == 0;
}

static void order(Core *c, int *moves, int m, int seat, int hint) {
    if (m <= 1) return;
    int keys[MAXH];
    if (c->tlen) {
        set_follow(c, seat);
        for (int i = 0; i < m; i++) keys[i] = follow_key(c, moves[i], seat);
    } else {
        for (int i = 0; i < m; i++) keys[i] = lead_key(c, moves[i], seat);
    }
    for (int i = 1; i < m; i++) {
        int mv = moves[i], k = keys[i], j = i - 1;
        while (j >= 0 && keys[j] > k) {
            moves[j + 1] = moves[j];
            keys[j + 1] = keys[j];
            j--;
        }
        moves[j + 1] = mv;
        keys[j + 1] = k;
    }
    if (hint >= 0) {
        for (int i = 0; i < m; i++) {
            if (SUIT(moves[i]) == SUIT(hint) && same_run(c, moves[i], hint, seat)) {
                int mv = moves[i];
                for (int j = i; j > 0; j--) moves[j] = moves[j - 1];
                moves[0] = mv;
                break;
            }
        }
    }
}
