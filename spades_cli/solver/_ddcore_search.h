/* The double-dummy search core (``_ddcore.c``): the search. */
/* Included once, in order, by _ddcore.c (one translation unit). */

/* -- search ------------------------------------------------------------------------ */

static int node(Core *c, double u, int hint);

static inline int final_ok(Core *c, int code, double u) {
    return c->count_mode ? (double)code >= u : c->table[code] >= u;
}

static int last_trick(Core *c, double u) {
    int n = c->n, seat = c->leader;
    int win = top64(c->hands[seat]), ws = seat;
    for (int i = 1; i < n; i++) {
        int s = (seat + i) % n;
        int card = top64(c->hands[s]);
        if (beats(c, card, win)) {
            win = card;
            ws = s;
        }
    }
    c->rel = 0; /* the winner's rank matters when it beat a card of its own suit */
    for (int s = 0; s < n; s++) {
        int card = top64(c->hands[s]);
        if (card != win && SUIT(card) == SUIT(win)) c->rel = 1ULL << win;
    }
    return final_ok(c, c->code + c->inc[ws], u);
}

/* ``rel`` widened where a run of equivalent cards searched through its lowest card is cut
 * by the lowest relevant card of its suit (the seat's own): by the run's next card below
 * that one, not the whole run. A position that agrees down to that next card holds the
 * run's cards at and above the cut, and after any of them the cards left agree with the
 * searched position's, relative rank by rank, down to the cut; its cards below are small
 * cards, answered as the run's lowest (bench/README.md, issue 32's ninth round). A run
 * wholly below its suit's ``floor_`` (see node()) needs nothing: each of its cards
 * answers as the card that set the floor. */
static u64 cover_runs(Core *c, u64 rel, u64 mask, int seat, const int *floor_) {
    u64 hand = c->hands[seat], gone = c->gone;
    for (int suit = 0; suit < 4; suit++) {
        u64 r = rel & SUIT_MASK[suit];
        if (!r || !(mask & SUIT_MASK[suit])) continue;
        u64 low = r & (~r + 1);
        if (!(hand & low)) continue;
        int cc = ctz64(low), base = 16 * suit, below = cc - 1, top = cc;
        for (int up = cc + 1; up < base + 16; up++) { /* the run's highest card */
            u64 b = 1ULL << up;
            if (hand & b)
                top = up;
            else if (!(gone & b))
                break;
        }
        if (RANK(top) < floor_[suit]) continue;
        while (below >= base && (gone >> below & 1)) below--;
        if (below >= base && (hand >> below & 1)) rel |= 1ULL << below;
    }
    return rel;
}

/* The tricks no seat can avoid are read from three tricks left: with two, the search
 * reads fewer cards than they do, and the positions above it keep narrower bounds
 * (bench/README.md, issue 32's eleventh round). */
#define FORCED_FROM 3

/* Each seat's tricks to come it cannot avoid taking: its spades no other seat's spade
 * can beat (each wins its own trick, however the others play), into ``forced``, and
 * the lowest of them into ``lows`` (spade bits); the most of any seat. */
static int seats_forced(const Core *c, int *forced, u64 *lows) {
    u64 all = 0;
    int most = 0;
    for (int s = 0; s < c->n; s++) all |= trumps_of(c, c->hands[s]);
    for (int s = 0; s < c->n; s++) {
        u64 own = trumps_of(c, c->hands[s]);
        lows[s] = 0;
        forced[s] = own ? left_over(own, all & ~own, c->left, &lows[s]) : 0;
        if (forced[s] > most) most = forced[s];
    }
    return most;
}

/* The most of ``forced`` (seats_forced) of one seat of ``want`` (seats counted, or not);
 * ``*rel`` that seat's lowest such spade, in place. */
static int forced_tricks(const Core *c, const int *forced, const u64 *lows, int want, u64 *rel) {
    int best = 0;
    *rel = 0;
    for (int s = 0; s < c->n; s++) {
        if ((c->cnt[s] != 0) != want || forced[s] <= best) continue;
        best = forced[s];
        *rel = lows[s] << (16 * c->trump_suit);
    }
    return best;
}

/* Whether every outcome from here in which each group ``g`` takes from ``glo[g]`` to
 * ``ghi[g]`` of the tricks to come and the counted seats from ``a`` to ``b`` has a value
 * of at least ``u`` (``no`` 0) or below it (``no`` 1): 0 at the first that has not
 * (groups from ``g`` on; ``acc`` the code so far, ``f`` the counted tricks so far;
 * ``*seen`` counts the outcomes read). */
static int box_all(Core *c, const int *glo, const int *ghi, int a, int b, int g, int left, int acc, int pw, int f,
                   double u, int no, int *seen) {
    if (g >= 4) return 1; /* never: ngroups <= 4 */
    int last = g == c->ngroups - 1;
    int from = last ? left : glo[g], to = last ? left : (ghi[g] < left ? ghi[g] : left);
    if (last && (left < glo[g] || left > ghi[g])) return 1;
    for (int k = from; k <= to; k++) {
        int ff = f + (c->gcnt[g] ? k : 0);
        int code = acc + k * pw;
        if (last) {
            if (ff < a || ff > b || code >= c->table_len) continue;
            (*seen)++;
            if (no ? c->table[code] >= u : c->table[code] < u) return 0;
        } else if (!box_all(c, glo, ghi, a, b, g + 1, left - k, code, pw * c->radix, ff, u, no, seen)) {
            return 0;
        }
    }
    return 1;
}

/* Table mode: what the tricks no seat can avoid decide, group by group (a seat's
 * spades no other spade beats each take a trick however the others play: its group
 * takes at least that many, every other group at most the tricks left less them;
 * ``seat_forced``, ``lows`` and ``most`` as seats_forced gives them), with the counted
 * tricks to come from ``a1`` to ``b1`` where the side asking can force them (``r1`` the
 * cards that read) and from ``a2`` to ``b2`` where the other side can. 1 or 0 (``c->rel`` then the cards read), -1 when they do not decide. */
static int groups_decide(Core *c, const int *seat_forced, const u64 *lows, int most, double u, int a1, int b1, u64 r1,
                         int a2, int b2, u64 r2) {
    int n = c->n, left = c->left, ng = c->ngroups, glo[4], ghi[4], group[4];
    u64 rel = 0;
    if (!most || ng < 2 || left < FORCED_FROM) return -1;
    for (int s = 0; s < n; s++) {
        int g = 0, pw = 1;
        while (g < ng && pw != c->inc[s]) {
            pw *= c->radix;
            g++;
        }
        group[s] = g;
    }
    for (int g = 0; g < ng; g++) {
        int in = 0, out = 0, sin = -1, sout = -1;
        for (int s = 0; s < n; s++) {
            if (group[s] == g && seat_forced[s] > in) in = seat_forced[s], sin = s;
            if (group[s] != g && seat_forced[s] > out) out = seat_forced[s], sout = s;
        }
        glo[g] = in;
        ghi[g] = left - out;
        if (sin >= 0) rel |= lows[sin] << (16 * c->trump_suit);
        if (sout >= 0) rel |= lows[sout] << (16 * c->trump_suit);
    }
    for (int no = 0; no < 2; no++) {
        int seen = 0, a = no ? a2 : a1, b = no ? b2 : b1;
        if (box_all(c, glo, ghi, a, b, 0, left, c->code, 1, 0, u, no, &seen) && seen) {
            c->rel = rel | (no ? r2 : r1);
            return !no;
        }
    }
    return -1;
}

/* Table mode: the bounds on the counted tricks to come that decide the question alone
 * (see counted_decide): a lower bound of at least ``*stop_lo`` or an upper bound of at
 * most ``*stop_hi`` (none: +inf, -inf), so that a probe can end at the first entry
 * that has one. */
static void decisive(Core *c, double u, double *stop_lo, double *stop_hi) {
    int left = c->left, counting = c->side == c->count_side;
    int up_all = left + 1, up_none = left + 1, down_all = -1, down_none = -1; /* see below */
    *stop_lo = INFINITY;
    *stop_hi = -INFINITY;
    const double *fr = frange_at(c, c->code, left), *gr = fr + MAXT + 1;
    if (!fr) return;
    /* up_all: the least f from which every outcome up to ``left`` reaches u; up_none:
     * from which none does; down_all, down_none: the greatest f up to which (from 0). */
    for (int f = left, all = 1, none = 1; f >= 0 && (all || none); f--) {
        if (fr[f] <= gr[f]) {
            all = all && fr[f] >= u;
            none = none && gr[f] < u;
        }
        if (all) up_all = f;
        if (none) up_none = f;
    }
    for (int f = 0, all = 1, none = 1; f <= left && (all || none); f++) {
        if (fr[f] <= gr[f]) {
            all = all && fr[f] >= u;
            none = none && gr[f] < u;
        }
        if (all) down_all = f;
        if (none) down_none = f;
    }
    /* The side asking makes it from a lower bound at up_all (counting) or an upper bound
     * at down_all (not); it does not from an upper bound at down_none (counting) or a
     * lower bound at up_none (not). */
    int lo_at = counting ? up_all : up_none, hi_at = counting ? down_none : down_all;
    if (lo_at <= left) *stop_lo = (double)lo_at;
    if (hi_at >= 0) *stop_hi = (double)hi_at;
}

/* Table mode: what the bounds on the counted tricks to come decide (a shared count
 * table's, the sure tricks). They are guarantees of play: the counted seats' side can
 * take at least ``lo`` of them, the other side can hold it to ``hi``; and whatever
 * either side does, the counted seats take at least ``fc`` (their spades no other
 * spade beats) and the others at least ``fo`` (the same), so at most left - ``fo``
 * are counted. So ``side`` makes the value at least ``u`` when every outcome its
 * guarantee leaves does, and cannot when every outcome the other side's guarantee
 * leaves is below it; with ``more`` (the value reads more than the counted tricks: a
 * nil seat's own), group by group too. 1 or 0 (``c->rel`` then the cards the bounds
 * depended on), -1 when they do not decide. */
static int counted_decide(Core *c, const Layout *L, int use_tt, double u, int more) {
    int left = c->left;
    double clo = 0.0, chi = (double)left;
    int los = -1, his = -1;
    if (use_tt && c->ctt) {
        double stop_lo, stop_hi;
        decisive(c, u, &stop_lo, &stop_hi);
        probe(c->ctt, L, L->flags, stop_lo, stop_hi, &clo, &chi, &los, &his);
    }
    int slo, shi;
    u64 srel[2];
    sure_bounds(c, left, left, &slo, &shi, srel);
    int lo = (int)clo, hi = (int)chi;
    u64 lrel = relevant(L, los), hrel = relevant(L, his);
    if (slo > lo) {
        lo = slo;
        lrel = srel[0];
    }
    if (shi < hi) {
        hi = shi;
        hrel = srel[1];
    }
    int counting = c->side == c->count_side; /* the side asking is the counted seats' side */
    double mn, mx;
    if (lo > 0 || hi < left) {
        /* What the side asking can force, then what the other side can. */
        if (reach(c, c->code, left, counting ? lo : 0, counting ? left : hi, &mn, &mx) < 0) return -1;
        if (mn >= u) {
            c->rel = counting ? lrel : hrel;
            return 1;
        }
        if (reach(c, c->code, left, counting ? 0 : lo, counting ? hi : left, &mn, &mx) < 0) return -1;
        if (mx < u) {
            c->rel = counting ? hrel : lrel;
            return 0;
        }
    }
    /* Then with the tricks neither side can avoid: the outcomes each side's guarantee
     * leaves, the counted seats' side's from a1 to b1, the other side's from a2 to b2,
     * and the cards each end read. */
    if (left < FORCED_FROM) return -1;
    int forced[4];
    u64 lows[4], fcrel, forel;
    int most = seats_forced(c, forced, lows);
    int fc = forced_tricks(c, forced, lows, 1, &fcrel), fo = forced_tricks(c, forced, lows, 0, &forel);
    if (fc == 0 && fo == 0) return -1; /* nor then group by group */
    int top = left - fo;
    int a1 = lo > fc ? lo : fc, b1 = top, a2 = fc, b2 = hi < top ? hi : top;
    u64 a1rel = lo > fc ? lrel : fcrel, b1rel = fo ? forel : 0, a2rel = fc ? fcrel : 0;
    u64 b2rel = hi < top ? hrel : forel;
    if (a1 > b1 || a2 > b2) return -1; /* never: the bounds hold together */
    if (reach(c, c->code, left, counting ? a1 : a2, counting ? b1 : b2, &mn, &mx) < 0) return -1;
    if (mn >= u) {
        c->rel = counting ? a1rel | b1rel : a2rel | b2rel;
        return 1;
    }
    if (reach(c, c->code, left, counting ? a2 : a1, counting ? b2 : b1, &mn, &mx) < 0) return -1;
    if (mx < u) {
        c->rel = counting ? a2rel | b2rel : a1rel | b1rel;
        return 0;
    }
    /* Then group by group, where the value reads more than the counted tricks. */
    if (!more) return -1;
    if (counting)
        return groups_decide(c, forced, lows, most, u, a1, b1, a1rel | b1rel, a2, b2, a2rel | b2rel);
    return groups_decide(c, forced, lows, most, u, a2, b2, a2rel | b2rel, a1, b1, a1rel | b1rel);
}

/* Table mode: the numbers of counted tricks to come whose outcomes all have a value of
 * at least ``u`` (a bit each, in ``*set``), when none of the others has: then the
 * question is which of them the side can force, whatever the code so far (1); else 0. */
static int satisfying(Core *c, double u, int *set) {
    int left = c->left, out = 0;
    double mn, mx;
    for (int f = 0; f <= left; f++) {
        if (reach(c, c->code, left, f, f, &mn, &mx) < 0) return 0;
        if (mn > mx) continue; /* no outcome has f */
        if (mn >= u)
            out |= 1 << f;
        else if (mx >= u)
            return 0; /* some outcomes with f reach u and some do not */
    }
    *set = out;
    return 1;
}

/* The outcomes to come whose value is at least ``u``, as bits in the order of the
 * groups' tricks (the first group's slowest); -1 when out of the table or over 128. */
static int outcome_bits(Core *c, int g, int left, int acc, int pw, double u, u64 *bits, int *bit) {
    if (g >= c->ngroups - 1) {
        Py_ssize_t idx = acc + left * pw;
        if (idx >= c->table_len || *bit >= 128) return -1;
        if (c->table[idx] >= u) bits[*bit >> 6] |= 1ULL << (*bit & 63);
        (*bit)++;
        return 0;
    }
    for (int k = 0; k <= left; k++)
        if (outcome_bits(c, g + 1, left - k, acc + k * pw, pw * c->radix, u, bits, bit) < 0) return -1;
    return 0;
}

#define OS_MAX_ID (1 << 26)

/* Into a list of at most OS_REL set numbers kept nearest first: ``id``, ``d`` apart. */
static void near_insert(int *ids, int *ds, int *count, int id, int d) {
    int i = *count < OS_REL ? (*count)++ : OS_REL;
    while (i > 0 && ds[i - 1] > d) {
        if (i < OS_REL) {
            ids[i] = ids[i - 1];
            ds[i] = ds[i - 1];
        }
        i--;
    }
    if (i < OS_REL) {
        ids[i] = id;
        ds[i] = d;
    }
}

/* The number of the set of outcomes ``bits`` with ``left`` tricks to come, a new one
 * (related to the sets of as many tricks to come it lies within or holds) when first
 * met; 0 out of memory or numbers. */
static int outcome_id(Core *c, int left, const u64 *bits) {
    if (2 * (c->os_count + 1) > c->os_cap) {
        int cap = c->os_cap ? 2 * c->os_cap : 256;
        if (c->os_count + 1 >= OS_MAX_ID) return 0;
        struct OutcomeSet *keys = calloc((size_t)cap, sizeof *keys);
        if (!keys) return 0;
        for (int i = 0; i < c->os_cap; i++) {
            struct OutcomeSet *k = &c->os_keys[i];
            if (!k->id) continue;
            u64 h = mix(k->bits[0], k->bits[1], (uint32_t)k->left) & (u64)(cap - 1);
            while (keys[h].id) h = (h + 1) & (u64)(cap - 1);
            keys[h] = *k;
        }
        free(c->os_keys);
        c->os_keys = keys;
        c->os_cap = cap;
    }
    u64 h = mix(bits[0], bits[1], (uint32_t)left) & (u64)(c->os_cap - 1);
    struct OutcomeSet *k = &c->os_keys[h];
    while (k->id) {
        if (k->left == left && k->bits[0] == bits[0] && k->bits[1] == bits[1]) return k->id;
        h = (h + 1) & (u64)(c->os_cap - 1);
        k = &c->os_keys[h];
    }
    if (c->os_count + 1 >= c->os_rel_cap) {
        int cap = c->os_rel_cap ? 2 * c->os_rel_cap : 256;
        struct OutcomeRel *rel = realloc(c->os_rel, (size_t)cap * sizeof *rel);
        if (!rel) return 0;
        c->os_rel = rel;
        c->os_rel_cap = cap;
    }
    int id = ++c->os_count;
    struct OutcomeRel *me = &c->os_rel[id];
    me->bits[0] = bits[0];
    me->bits[1] = bits[1];
    me->left = left;
    me->nsub = me->nsup = 0;
    for (int o = 1; o < id; o++) {
        struct OutcomeRel *it = &c->os_rel[o];
        if (it->left != left) continue;
        int within = !(it->bits[0] & ~bits[0]) && !(it->bits[1] & ~bits[1]);
        int holds = !(bits[0] & ~it->bits[0]) && !(bits[1] & ~it->bits[1]);
        int d = pop64(it->bits[0] ^ bits[0]) + pop64(it->bits[1] ^ bits[1]);
        if (within) {
            near_insert(me->sub, me->dsub, &me->nsub, o, d);
            near_insert(it->sup, it->dsup, &it->nsup, id, d);
        }
        if (holds) {
            near_insert(me->sup, me->dsup, &me->nsup, o, d);
            near_insert(it->sub, it->dsub, &it->nsub, id, d);
        }
    }
    k->bits[0] = bits[0];
    k->bits[1] = bits[1];
    k->left = left;
    k->id = id;
    return id;
}

/* Table mode: the number (from 1) of the question "can the side make the tricks to come
 * one of the outcomes whose value is at least ``u``" from here, the same for every code
 * so far that gives the same set (a nil seat's side past its contract asks only that
 * the nil seat take none, whatever its partner's tricks so far: bench/README.md), read
 * once a code and tricks to come while ``u`` is asked; 0 when it has none (out of
 * memory, too many outcomes or sets). */
static int outcome_set(Core *c, double u) {
    int left = c->left;
    size_t cell = (size_t)c->code * (MAXT + 1) + (size_t)left;
    if (!c->os_of && c->frange_cells) {
        c->os_of = malloc(c->frange_cells * sizeof *c->os_of);
        c->os_seen = calloc(c->frange_cells, sizeof *c->os_seen);
        if (!c->os_of || !c->os_seen) {
            free(c->os_of);
            free(c->os_seen);
            c->os_of = NULL;
            c->os_seen = NULL;
        }
    }
    if (u != c->os_u || !c->os_asked) {
        c->os_u = u;
        if (++c->os_asked == 0 && c->os_seen) { /* the stamps wrapped */
            memset(c->os_seen, 0, c->frange_cells * sizeof *c->os_seen);
            c->os_asked = 1;
        }
    }
    int cached = c->os_of && cell < c->frange_cells;
    if (cached && c->os_seen[cell] == c->os_asked) return c->os_of[cell];
    u64 bits[2] = {0, 0};
    int bit = 0;
    int id = outcome_bits(c, 0, left, c->code, 1, u, bits, &bit) < 0 ? 0 : outcome_id(c, left, bits);
    if (cached) {
        c->os_of[cell] = id;
        c->os_seen[cell] = c->os_asked;
    }
    return id;
}

/* Whether the set of counted tricks to come ``set`` is "at least ``*a``" (1), "below
 * ``*a``" (-1), or neither (0). */
static int threshold(int set, int left, int *a) {
    int all = (2 << left) - 1;
    for (int k = 1; k <= left; k++) {
        int up = all & ~((1 << k) - 1);
        if (set == up) {
            *a = k;
            return 1;
        }
        if (set == (all & ~up)) {
            *a = k;
            return -1;
        }
    }
    return 0;
}

static int lead(Core *c, double u);

/* The count game from here (the counted seats' side wants at least ``need`` counted
 * tricks in all), searched with the shared count table. */
static int count_game(Core *c, int need) {
    int sm = c->count_mode, ss = c->side, sc = c->code, sinc[4];
    memcpy(sinc, c->inc, sizeof sinc);
    c->count_mode = 1;
    c->side = c->count_side;
    c->code = c->ccode;
    memcpy(c->inc, c->cnt, sizeof sinc);
    int r = lead(c, (double)need);
    memcpy(c->inc, sinc, sizeof sinc);
    c->code = sc;
    c->side = ss;
    c->count_mode = sm;
    return r;
}

#define SURE_FIRST 4

/* Count mode: whether the sure tricks settle "at least need of the left tricks" (1 yes,
 * 0 no, with c->rel what the answer read), or -1 when they do not. */
static inline int sure_cut(Core *c, int need, int left) {
    int slo, shi;
    u64 srel[2];
    sure_bounds(c, need, left - need + 1, &slo, &shi, srel);
    if (need > slo && need <= shi) return -1;
    c->rel = need <= slo ? srel[0] : srel[1];
    return need <= slo;
}
/* At a trick's start: can ``side`` make the value at least ``u``? */
static int lead(Core *c, double u) {
    int left = c->left;
    int need = 0;
    c->rel = 0;
    if (c->count_mode) {
        double nd = ceil(u - (double)c->code);
        if (nd <= 0) return 1;
        if (nd > left) return 0;
        need = (int)nd;
    } else {
        if (left == 0) return c->table[c->code] >= u;
        double mn, mx;
        if (reach(c, c->code, left, 0, left, &mn, &mx) == 0) {
            if (mn >= u) return 1;
            if (mx < u) return 0;
        }
    }
    if (left == 1) return last_trick(c, u);
    /* Count mode, at most SURE_FIRST tricks left: the sure tricks are read before the
     * table (as DDS reads its quick tricks below five tricks): where both answer, the
     * sure trick depends on fewer cards than the table's entry (bench/README.md, issue
     * 32's tenth round). */
    int sure_first = c->count_mode && left <= SURE_FIRST;
    int sure;
    if (sure_first && (sure = sure_cut(c, need, left)) >= 0) return sure;
    Layout L;
    layout(c, &L);
    int hint = -1;
    int use_tt = !c->first; /* the first trick: who holds the two of clubs may matter */
    Tables *vt = c->count_mode ? c->ctt : &c->tt;

    uint32_t meta = L.meta;
    int set = -1; /* table mode: the question as a set of counted tricks to come (see satisfying) */
    int oset = 0; /* table mode, not such a set: the question as a set of outcomes to come */
    if (!c->count_mode && c->count_ok && satisfying(c, u, &set))
        meta = L.flags | ((uint32_t)set << 4) | (1u << 30); /* kept by the set, not the code */
    else if (!c->count_mode && use_tt && (oset = outcome_set(c, u)) > 0)
        meta = L.flags | ((uint32_t)oset << 4) | (1u << 31); /* kept by the outcomes' set */
    if (!c->count_mode && left > 0 && left <= MAXT) c->as_set[left] = set >= 0;
    if (use_tt && (set >= 0 || oset > 0)) {
        double lo = 0.0, hi = 1.0; /* the answer: lo 1 yes, hi 0 no */
        int lo_shape, hi_shape;
        hint = from_relative(c, probe(vt, &L, meta, 1.0, 0.0, &lo, &hi, &lo_shape, &hi_shape));
        if (lo >= 1.0 || hi <= 0.0) {
            c->rel = relevant(&L, lo >= 1.0 ? lo_shape : hi_shape);
            return lo >= 1.0;
        }
        int rset = oset;
        if (set >= 0) { /* the counted tricks' sets numbered apart (left + 32), kept by the set */
            u64 sb[2] = {(u64)set, 0};
            rset = outcome_id(c, left + 32, sb);
        }
        if (rset > 0) {
            /* A set within this one the side makes, or one holding it that it cannot (the
             * nearest few of each: each probe costs a read of the table). */
            const struct OutcomeRel *me = &c->os_rel[rset];
            for (int i = 0; i < me->nsub + me->nsup; i++) {
                int sub = i < me->nsub, o = sub ? me->sub[i] : me->sup[i - me->nsub];
                double olo = 0.0, ohi = 1.0;
                uint32_t om = set >= 0 ? L.flags | ((uint32_t)c->os_rel[o].bits[0] << 4) | (1u << 30)
                                       : L.flags | ((uint32_t)o << 4) | (1u << 31);
                int oh = probe(vt, &L, om, sub ? 1.0 : INFINITY, sub ? -INFINITY : 0.0, &olo, &ohi, &lo_shape,
                               &hi_shape);
                if (hint < 0 && set < 0) hint = from_relative(c, oh); /* (counted sets: it costs) */
                if (sub ? olo >= 1.0 : ohi <= 0.0) {
                    c->rel = relevant(&L, sub ? lo_shape : hi_shape);
                    return sub;
                }
            }
        }
    } else if (use_tt) {
        double lo = c->count_mode ? 0.0 : -INFINITY, hi = c->count_mode ? (double)left : INFINITY;
        int lo_shape, hi_shape;
        double q = c->count_mode ? (double)need : u;
        hint = from_relative(c, probe(vt, &L, L.meta, q, c->count_mode ? q - 1.0 : q, &lo, &hi, &lo_shape,
                                      &hi_shape));
        if (q <= lo) {
            c->rel = relevant(&L, lo_shape);
            return 1;
        }
        if (c->count_mode ? q > hi : q >= hi) {
            c->rel = relevant(&L, hi_shape);
            return 0;
        }
    }
    if (c->count_mode) {
        if (!sure_first && (sure = sure_cut(c, need, left)) >= 0) return sure; /* after the table */
    } else if (!c->count_ok) {
        if (left >= FORCED_FROM) { /* nothing counted: f is 0 */
            int forced[4];
            u64 lows[4];
            int most = seats_forced(c, forced, lows);
            int known = groups_decide(c, forced, lows, most, u, 0, 0, 0, 0, 0, 0);
            if (known >= 0) return known;
        }
    } else {
        int known = counted_decide(c, &L, use_tt, u, set < 0);
        if (known >= 0) return known;
        int a, dir = c->ctt && use_tt && set >= 0 ? threshold(set, left, &a) : 0;
        int counting = c->side == c->count_side;
        if (dir != 0 && (dir > 0) == counting) {
            /* A trick target: the count game answers it, and its table is shared. */
            int r = count_game(c, c->ccode + a);
            return counting ? r : !r;
        }
    }
    c->best_card = -1;
    int r = node(c, u, hint);
    if (c->aborted) return 0;
    u64 rel = c->rel;
    if (use_tt) {
        int best = to_relative(c, c->best_card);
        if (c->count_mode)
            store(vt, &L, L.meta, rel, r ? (double)need : 0.0, r ? (double)left : (double)(need - 1), best,
                  0.0, (double)left);
        else if (set >= 0 || oset > 0)
            store(vt, &L, meta, rel, r ? 1.0 : 0.0, r ? 1.0 : 0.0, best, 0.0, 1.0);
        else
            store(vt, &L, L.meta, rel, r ? u : -INFINITY, r ? INFINITY : u, best, -INFINITY, INFINITY);
    }
    c->rel = rel;
    return r;
}

/* Play ``card`` for the seat on turn, search on, take it back. */
static int play(Core *c, int card, double u) {
    int seat = c->current, n = c->n;
    int sw = c->win_card, ss = c->win_seat, sb = c->broken;
    c->hands[seat] ^= 1ULL << card;
    c->trick[c->tlen++] = card;
    if (c->tlen == 1 || beats(c, card, c->win_card)) { /* R-C-4 */
        c->win_card = card;
        c->win_seat = seat;
    }
    if (c->trump >> card & 1) c->broken = 1; /* R-C-6 */
    int r;
    if (c->tlen == n) {
        int winner = c->win_seat, w = c->win_card;
        c->tricks++;
        int sl = c->leader, sf = c->first, scode = c->code, sccode = c->ccode;
        u64 played = 0;
        for (int i = 0; i < n; i++) played |= 1ULL << c->trick[i];
        int saved[4];
        memcpy(saved, c->trick, sizeof saved);
        c->tlen = 0;
        c->gone |= played;
        c->left -= 1;
        c->leader = winner;
        c->current = winner;
        c->first = 0;
        c->code += c->inc[winner];
        c->ccode += c->cnt[winner];
        r = lead(c, u);
        for (int i = 0; i < n; i++) {
            if (saved[i] != w && SUIT(saved[i]) == SUIT(w)) {
                c->rel |= 1ULL << w; /* the winner beat a card of its suit by rank */
                break;
            }
        }
        c->code = scode;
        c->ccode = sccode;
        c->first = sf;
        c->leader = sl;
        c->left += 1;
        c->gone &= ~played;
        memcpy(c->trick, saved, sizeof saved);
        c->tlen = n;
        c->current = seat;
    } else {
        c->current = (seat + 1) % n;
        r = node(c, u, -1);
        c->current = seat;
    }
    c->tlen -= 1;
    c->hands[seat] ^= 1ULL << card;
    c->win_card = sw;
    c->win_seat = ss;
    c->broken = sb;
    return r;
}

/* Table mode, a trick whose question was kept as a set: the cards from ``at`` on in the
 * order of the cuts each made at this depth after the card tried first had not (most
 * first; ties keep their order), before the killer goes first. An exact count is made
 * or refuted by the same few cards line after line (a duck that makes the other side
 * overshoot, say), and one killer a depth forgets all but the last (bench/README.md). */
static void by_cuts(const Core *c, int *moves, int m, int ply, int at) {
    const uint32_t *cuts = c->cuts[ply];
    for (int i = at + 1; i < m; i++) {
        int mv = moves[i], j = i - 1;
        while (j >= at && cuts[moves[j]] < cuts[mv]) {
            moves[j + 1] = moves[j];
            j--;
        }
        moves[j + 1] = mv;
    }
}

/* Count mode, any lead, and the follows of the side asking for a seat counted alone; and
 * table mode, every card of a trick whose question at its start was kept as a set of
 * counted tricks (an exact count, say: the side that wants it must neither fall short
 * nor overshoot, and the card that refuted one line most often refutes the next): the
 * card that last made the cut at the same depth of the hand, after the first card tried
 * there had not (a "killer"), is tried first, or second behind the table's best card at
 * a lead. It saves positions in count mode at both sides' leads; at the follows only for
 * a seat counted alone (a side's tricks search fewer without it there); in table mode
 * only for the questions kept as sets (elsewhere it costs: bench/README.md). */
/* The killer of depth ``ply``: the count games' own, or table mode's. */
static inline signed char *killer_at(Core *c, int ply) {
    return c->count_mode ? &c->killer[ply] : &c->tkiller[ply];
}

static void killer_first(Core *c, int *moves, int m, int seat, int ply, int hinted) {
    int k = *killer_at(c, ply), at = hinted ? 1 : 0;
    if (k < 0 || !((c->hands[seat] >> k) & 1)) return;
    for (int i = at + 1; i < m; i++) {
        if (SUIT(moves[i]) == SUIT(k) && same_run(c, moves[i], k, seat)) {
            int mv = moves[i];
            for (int j = i; j > at; j--) moves[j] = moves[j - 1];
            moves[at] = mv;
            return;
        }
    }
}

/* A card with which a seat of ``takers`` (the team of the seat on turn, or seats of it)
 * surely takes the trick in progress (-1: none found): one such a seat holds, legal when
 * it plays (whether or not a trump breaks spades before then), or the card winning now
 * when a taker's, that beats the card winning now and that no card the seats of
 * ``against`` still to play may play beats (R-C-4). The other seats of the team may play
 * anything else meanwhile; ``*opp`` is what ``against`` may play. */
static int trick_taker(Core *c, int takers, int against, u64 *opp) {
    int n = c->n, seat = c->current;
    int later = n - c->tlen; /* seats still to play, this one included */
    int w = c->win_card;
    u64 pool[4] = {0, 0, 0, 0}; /* per seat still to play: what it may play */
    for (int i = 0; i < later; i++) {
        int s = (seat + i) % n;
        if (against >> s & 1) pool[s] = legal_in(c, s, 0) | legal_in(c, s, 1);
    }
    u64 theirs = pool[0] | pool[1] | pool[2] | pool[3];
    *opp = theirs;
    if ((takers >> c->win_seat & 1) && !(theirs & c->beaten[w])) return w;
    for (int i = 0; i < later; i++) {
        int s = (seat + i) % n;
        if (!(takers >> s & 1)) continue;
        u64 ok = i ? legal_in(c, s, 0) & legal_in(c, s, 1) : legal(c, s);
        u64 rest = theirs & ~pool[s]; /* a taker is not against itself */
        ok &= c->beaten[w];
        while (ok) {
            int x = top64(ok);
            ok ^= 1ULL << x;
            if (!(rest & c->beaten[x])) {
                *opp = rest;
                return x;
            }
        }
    }
    return -1;
}

/* ``c->rel`` for a trick surely taken with ``x``: its rank matters when it beats a card of
 * its suit, or another seat (what ``theirs`` may play) may play one. */
static void taker_rel(Core *c, int x, u64 theirs) {
    u64 suit = SUIT_MASK[SUIT(x)];
    int by_rank = (theirs & suit) != 0;
    for (int i = 0; i < c->tlen; i++)
        if (c->trick[i] != x && SUIT(c->trick[i]) == SUIT(x)) by_rank = 1;
    c->rel = by_rank ? 1ULL << x : 0;
}

/* Count mode, within a trick: 1 or 0 when the side on turn gets what it needs from this
 * trick and surely takes it (``c->rel`` then the card that takes it), else -1 (DDS's
 * quick tricks for the second hand, here at every seat after the lead). The side asking
 * needs one more counted trick: a counted seat of it takes this one, with every other
 * seat still to play against it when its team has uncounted seats (a seat counted
 * alone: its partner might have to overtake). The other side, when the side asking needs
 * every trick left: a seat of its own takes this one, or any seat not counted does (its
 * card safe from the counted seats still to play). */
static int last_needed(Core *c, double u) {
    /* The side asking needs at most one more (ceil(short_) <= 1), or every trick left
     * (ceil(short_) >= left): else nothing to read, and the seats need not be sorted out. */
    double short_ = u - (double)c->code; /* the counted tricks still short of u */
    int one = short_ <= 1.0, all_left = short_ > (double)(c->left - 1);
    if (!one && !all_left) return -1;
    int team = c->team[c->current], mates = 0, counted = 0, others = 0, all_counted = 0;
    for (int s = 0; s < c->n; s++) {
        if (c->inc[s]) all_counted |= 1 << s;
        if (c->team[s] != team) {
            others |= 1 << s;
            continue;
        }
        mates |= 1 << s;
        if (c->inc[s]) counted |= 1 << s;
    }
    int asking = team == c->side, takers, against;
    if (asking && counted && one) {
        takers = counted;
        against = counted == mates ? others : ((1 << c->n) - 1);
    } else if (!asking && !counted && all_left) {
        takers = mates;
        against = all_counted; /* a trick any seat not counted takes will do */
    } else {
        return -1;
    }
    u64 theirs;
    int x = trick_taker(c, takers, against, &theirs);
    if (x < 0) return -1;
    taker_rel(c, x, theirs);
    return asking;
}

/* Table mode, within a trick: 1 or 0 when a seat of the team on turn surely takes this
 * trick, every other seat still to play against it, and every outcome after that trick
 * goes the team's way (the side asking: all at least ``u``; the other side: all below
 * it), else -1. */
static int last_wanted(Core *c, double u) {
    int team = c->team[c->current], asking = team == c->side, all = (1 << c->n) - 1;
    for (int s = 0; s < c->n; s++) {
        if (c->team[s] != team) continue;
        double mn, mx;
        if (reach(c, c->code + c->inc[s], c->left - 1, 0, c->left - 1, &mn, &mx) < 0) return -1;
        if (asking ? mn < u : mx >= u) continue;
        u64 theirs;
        int x = trick_taker(c, 1 << s, all, &theirs);
        if (x < 0) continue;
        taker_rel(c, x, theirs);
        return asking;
    }
    return -1;
}

static int node(Core *c, double u, int hint) {
    c->nodes++;
    if ((c->budget && c->nodes > c->budget) || c->stopped) {
        c->aborted = 1;
        return 0;
    }
    if (c->tlen && !c->first) {
        int known = c->count_mode ? last_needed(c, u) : last_wanted(c, u);
        if (known >= 0) return known;
    }
    int seat = c->current;
    int moves[MAXH];
    u64 mask = legal(c, seat);
    int m = distinct(c, seat, mask, moves);
    if (m == 0) return 0; /* not a position of the play (a seat with no card) */
    order(c, moves, m, seat, hint);
    int mine = c->team[seat] == c->side;
    int ply = (MAXT - c->left) * c->n + c->tlen;
    int killers = c->count_mode ? !c->tlen || (mine && c->alone >= 0) : c->as_set[c->left];
    int hinted = hint >= 0 && !c->tlen;
    if (killers && !c->count_mode && m > 1) by_cuts(c, moves, m, ply, hinted);
    if (killers && m > 1) killer_first(c, moves, m, seat, ply, hinted);
    u64 rel = 0;
    int floor_[4] = {0, 0, 0, 0}; /* per suit: cards below it answer as one already tried */
    for (int i = 0; i < m; i++) {
        int card = moves[i], suit = SUIT(card);
        if (RANK(card) < floor_[suit]) continue;
        int r = play(c, card, u);
        if (c->aborted) return 0;
        if (r == mine) {
            c->best_card = card;
            if (i > 0) *killer_at(c, ply) = (signed char)card;
            if (i > 0 && killers && !c->count_mode) c->cuts[ply][card]++;
            return r;
        }
        rel |= c->rel;
        /* The answer after ``card`` did not depend on the rank of any card of its suit
         * below the lowest one in ``c->rel``: a lower card of the suit gives the same (each
         * card that fails may raise the floor its suit's earlier ones set). */
        u64 r_suit = c->rel & SUIT_MASK[suit];
        int low = r_suit ? RANK(ctz64(r_suit)) : 16;
        if (RANK(card) < low && low > floor_[suit]) floor_[suit] = low;
    }
    c->best_card = moves[0];
    c->rel = cover_runs(c, rel, mask, seat, floor_);
    return !mine;
}
