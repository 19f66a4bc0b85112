/* The double-dummy search core (``_ddcore.c``): sure-trick bounds. */
/* Included once, in order, by _ddcore.c (one translation unit). */

/* -- sure tricks (as solver/sure.py), count mode: bounds on the counted tricks to come
 *
 * The trumps are read from the order the core was handed (``trump``, ``trump_suit``):
 * slot cards (solver/deck.py), so every suit, the trumps included, is ranked as its
 * numbers whatever the deck. The seats are two teams (``team``); a seat cashes with its
 * ``mate`` (itself alone; -1, a team of three: nothing is cashed for it). */

static inline int bitlen(u64 x) { return x ? 64 - __builtin_clzll(x) : 0; }
static inline int non_spades(const Core *c, u64 h) { return pop64(h & ~c->trump); }
/* The trumps of ``h`` as 16 bits, the lowest first. */
static inline u64 trumps_of(const Core *c, u64 h) { return (h >> (16 * c->trump_suit)) & 0xFFFF; }

/* The ``k``-th highest card of the 16-bit set ``own`` (k >= 1, at most its size). A
 * sure-trick count that cashes a seat's top ``k`` cards of a suit depends on who holds
 * the suit's top ``k`` cards, down to that one, not on the next card below. */
static inline int kth_top(u64 own, int k) {
    while (--k > 0) own ^= 1ULL << top64(own);
    return top64(own);
}

static int forced(const Core *c, int cash, u64 other, int led) {
    int free_ = non_spades(c, other) - led;
    return cash <= free_ + 1 ? cash : free_ + 1;
}

/* Per suit, the fewest cards of it an opponent of ``seat`` holding a spade has (16 when
 * no opponent holds one): how long a cash in the suit can last while they must follow. */
static void follow_lens(const Core *c, int seat, int *lens) {
    for (int suit = 0; suit < 4; suit++) lens[suit] = 16;
    for (int s = 0; s < c->n; s++) {
        u64 opp = c->hands[s];
        if (c->team[s] == c->team[seat] || !(opp & c->trump)) continue;
        for (int suit = 0; suit < 4; suit++) {
            int len = pop64(opp & SUIT_MASK[suit]);
            if (len < lens[suit]) lens[suit] = len;
        }
    }
}

/* Side-suit tricks ``seat`` cashes from the top while every opponent holding a spade
 * must follow (``lens``: see follow_lens); with ``entry`` (the leader, ``seat`` its
 * partner) it must be reached. Without one, at most ``want`` are counted (all a question
 * needs), so that the bound depends on the top cards of those alone. */
static int cash_of(Core *c, int seat, u64 uni, int entry, int want, const int *lens, u64 *prel) {
    u64 hand = c->hands[seat];
    u64 rel = 0;
    int cash = 0, reached = entry < 0;
    for (int suit = 0; suit < 4; suit++) {
        if (suit == c->trump_suit) continue;
        int base = 16 * suit;
        u64 own = (hand >> base) & 0xFFFF;
        if (!own) continue;
        u64 others = ((uni >> base) & 0xFFFF) & ~own;
        int k = others == 0 ? pop64(own) : pop64(own >> bitlen(others));
        if (lens[suit] < k) k = lens[suit];
        if (entry < 0 && k > want - cash) k = want - cash;
        if (k && others) rel |= 1ULL << (base + kth_top(own, k));
        if (k && entry >= 0 && ((c->hands[entry] >> base) & 0xFFFF)) reached = 1;
        cash += k;
    }
    *prel = reached ? rel : 0;
    return reached ? cash : 0;
}

/* The bounds of the cashing leads; ``prel[0]`` the cards the lower bound depended on,
 * ``prel[1]`` the upper's. */
static void cash_bounds(Core *c, u64 uni, const u64 *tr, int want_lo, int want_hi, int *plo, int *phi, u64 *prel) {
    int n = c->n, leader = c->leader, left = c->left;
    const int *counted = c->cnt;
    int lo = 0, hi = left, holder = -1, sure = 0;
    u64 rel = 0, got_rel = 0, lrel = 0, hrel = 0;
    int tb = 16 * c->trump_suit; /* the trumps' first slot card */
    u64 spades = trumps_of(c, uni);
    if (spades) {
        u64 top = 1ULL << top64(spades);
        for (int s = 0; s < n; s++)
            if (tr[s] & top) holder = s;
        u64 own = tr[holder];
        u64 others = spades & ~own;
        sure = others == 0 ? pop64(own) : pop64(own >> bitlen(others));
        if (others) rel = 1ULL << (tb + kth_top(own, sure));
    }
    int partner = c->mate[leader];
    /* The top spades' holder's sure tricks, counted or not. */
#define HOLDER_SURE()             \
    do {                          \
        if (counted[holder]) {    \
            lo = sure;            \
            lrel = rel;           \
        } else {                  \
            hi = left - sure;     \
            hrel = rel;           \
        }                         \
    } while (0)
    if (partner < 0) { /* the leader's team is three seats: only the top spades' holder is sure */
        if (holder >= 0) HOLDER_SURE();
        *plo = lo;
        *phi = hi;
        prel[0] = lrel;
        prel[1] = hrel;
        return;
    }
    int mine = counted[leader] && counted[partner];
    int none = !counted[leader] && !counted[partner];
    if (holder >= 0 && holder != leader && holder != partner) HOLDER_SURE();
    if (c->first || !(mine || none)) {
        if (holder == leader || holder == partner) HOLDER_SURE();
        if (!(c->first || partner == leader)) {
            int seat = counted[leader] ? leader : partner, lens[4];
            follow_lens(c, seat, lens);
            int got = cash_of(c, seat, uni, seat == leader ? -1 : leader, want_lo, lens, &got_rel);
            int free_ = non_spades(c, c->hands[seat == leader ? partner : leader]);
            int cash = got <= free_ ? got : free_;
            cash += holder == seat ? sure : 0;
            if (cash > left) cash = left;
            if (cash > lo) {
                lo = cash;
                lrel = got_rel | (holder == seat ? rel : 0);
            }
        }
        *plo = lo;
        *phi = hi;
        prel[0] = lrel;
        prel[1] = hrel;
        return;
    }
#undef HOLDER_SURE
    int lens[4]; /* the leader's and its partner's opponents are the same */
    follow_lens(c, leader, lens);
    int got = cash_of(c, leader, uni, -1, mine ? want_lo : want_hi, lens, &got_rel);
    u64 cash_rel = got_rel | (holder == leader ? rel : 0);
    int cash = (partner == leader ? got : forced(c, got, c->hands[partner], 0)) + (holder == leader ? sure : 0);
    if (partner != leader) {
        u64 via_rel = 0;
        int via = cash_of(c, partner, uni, leader, left, lens, &via_rel);
        int alt = forced(c, via, c->hands[leader], 1) + (holder == partner ? sure : 0);
        if (alt > cash) {
            cash = alt;
            cash_rel = via_rel | (holder == partner ? rel : 0);
        }
    }
    if (holder == partner && sure > cash) {
        cash = sure;
        cash_rel = rel;
    }
    if (cash > left) cash = left;
    if (mine) {
        if (cash > lo) {
            lo = cash;
            lrel = cash_rel;
        }
    } else if (left - cash < hi) {
        hi = left - cash;
        hrel = cash_rel;
    }
    *plo = lo;
    *phi = hi;
    prel[0] = lrel;
    prel[1] = hrel;
}

/* The spades of ``own`` no spade of ``other`` can be matched to (each beating one lower),
 * the highest ``cap`` of them at most; ``*low`` the lowest counted. Read from the top, a
 * spade of ``own`` is left over when its seat's spades so far outnumber the other's above
 * it by more than ever before (the others above it are all matched), so only the spades
 * of ``own`` are visited. ``own`` and ``other`` are disjoint. */
static int left_over(u64 own, u64 other, int cap, u64 *low) {
    int wins = 0, seen = 0;
    *low = 0;
    while (own && wins < cap) {
        int x = top64(own);
        own ^= 1ULL << x;
        seen++;
        if (seen - pop64(other >> x) > wins) {
            wins++;
            *low = 1ULL << x;
        }
    }
    return wins;
}

static void spade_bounds(Core *c, u64 uni, const u64 *tr, int want_lo, int want_hi, int *plo, int *phi, u64 *prel) {
    int n = c->n, left = c->left, lo = 0, hi = left, extra = 0;
    u64 lrel = 0, hrel = 0, extra_rel = 0, low = 0;
    const int *counted = c->cnt;
    int tb = 16 * c->trump_suit; /* the trumps' first slot card */
    u64 spades = trumps_of(c, uni);
    for (int side = 0; side < 2; side++) {
        u64 other = 0;
        int mine = 1, theirs = 1;
        for (int s = 0; s < n; s++) {
            if (c->team[s] != side)
                other |= tr[s];
            else if (counted[s])
                theirs = 0;
            else
                mine = 0;
        }
        for (int s = 0; s < n; s++) {
            u64 own = tr[s];
            if (c->team[s] != side || !own) continue;
            if (mine || theirs) {
                int k = left_over(own, other, mine ? want_lo : want_hi, &low);
                if (k > left) k = left;
                if (mine && k > lo) {
                    lo = k;
                    lrel = low << tb;
                } else if (theirs && left - k < hi) {
                    hi = left - k;
                    hrel = low << tb;
                }
            } else {
                int k = left_over(own, spades & ~own, counted[s] ? want_lo : left, &low);
                if (counted[s] && k > lo) {
                    lo = k;
                    lrel = low << tb;
                } else if (!counted[s] && k) {
                    extra = k;
                    extra_rel = low << tb;
                }
            }
        }
    }
    if (extra && hi - extra >= lo) {
        hi -= extra;
        hrel |= extra_rel;
    }
    if (c->alone >= 0) {
        /* A seat counted alone takes no trick in which another seat plays a spade it
         * cannot beat, whoever wins it: each seat's spades its own do not cover (its
         * figures: bench/README.md, the seats' figures of six hands). */
        u64 alone = tr[c->alone];
        for (int s = 0; s < n; s++) {
            u64 own = tr[s];
            if (s == c->alone || !own) continue;
            int k = left_over(own, alone, want_hi, &low);
            if (k > left) k = left;
            if (left - k < hi && left - k >= lo) {
                hi = left - k;
                hrel = low << tb;
            }
        }
    }
    *plo = lo;
    *phi = hi;
    prel[0] = lrel;
    prel[1] = hrel;
}

/* The sure tricks' bounds; ``prel[0]`` the cards the lower depended on, ``prel[1]``
 * the upper's. The cashes count at most ``want_lo`` tricks for the lower bound and
 * ``want_hi`` against the upper (``c->left`` both: the bounds in full). */
static void sure_bounds(Core *c, int want_lo, int want_hi, int *plo, int *phi, u64 *prel) {
    u64 uni = 0, r1[2], r2[2], tr[4] = {0, 0, 0, 0}; /* tr: each seat's trumps (trumps_of) */
    for (int s = 0; s < c->n; s++) {
        uni |= c->hands[s];
        tr[s] = trumps_of(c, c->hands[s]);
    }
    int lo1, hi1, lo2, hi2;
    cash_bounds(c, uni, tr, want_lo, want_hi, &lo1, &hi1, r1);
    spade_bounds(c, uni, tr, want_lo, want_hi, &lo2, &hi2, r2);
    *plo = lo1 >= lo2 ? lo1 : lo2;
    prel[0] = lo1 >= lo2 ? r1[0] : r2[0];
    *phi = hi1 <= hi2 ? hi1 : hi2;
    prel[1] = hi1 <= hi2 ? r1[1] : r2[1];
}
