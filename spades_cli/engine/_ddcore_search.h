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
        if (beats(card, win)) {
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

/* ``rel`` widened so that no run of equivalent cards searched through its lowest card is
 * cut by the lowest relevant card of its suit. */
static u64 whole_runs(Core *c, u64 rel, u64 mask, int seat) {
    u64 hand = c->hands[seat], gone = c->gone;
    for (int suit = 0; suit < 4; suit++) {
        u64 r = rel & SUIT_MASK[suit];
        if (!r || !(mask & SUIT_MASK[suit])) continue;
        u64 low = r & (~r + 1);
        if (!(hand & low)) continue;
        int cc = ctz64(low), base = 13 * suit, below = cc - 1;
        while (below >= base) {
            u64 b = 1ULL << below;
            if (gone & b) {
                below--;
            } else if (hand & b) {
                cc = below;
                below--;
            } else {
                break;
            }
        }
        rel |= 1ULL << cc;
    }
    return rel;
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
        reach(c, c->code, left, &mn, &mx);
        if (mn >= u) return 1;
        if (mx < u) return 0;
    }
    if (left == 1) return last_trick(c, u);
    Layout L;
    layout(c, &L);
    int hint = -1;
    int use_tt = !c->first; /* the first trick: who holds the two of clubs may matter */
    if (use_tt) {
        double lo = c->count_mode ? 0.0 : -INFINITY, hi = c->count_mode ? (double)left : INFINITY;
        int lo_shape, hi_shape;
        hint = from_relative(c, probe(c, &L, &lo, &hi, &lo_shape, &hi_shape));
        double q = c->count_mode ? (double)need : u;
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
        int slo, shi;
        u64 srel;
        sure_bounds(c, &slo, &shi, &srel);
        if (need <= slo || need > shi) {
            c->rel = srel;
            return need <= slo;
        }
    }
    c->best_card = -1;
    int r = node(c, u, hint);
    if (c->aborted) return 0;
    u64 rel = c->rel;
    if (use_tt) {
        int best = to_relative(c, c->best_card);
        if (c->count_mode)
            store(c, &L, rel, r ? (double)need : 0.0, r ? (double)left : (double)(need - 1), best);
        else
            store(c, &L, rel, r ? u : -INFINITY, r ? INFINITY : u, best);
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
    if (c->tlen == 1 || beats(card, c->win_card)) { /* R-C-4 */
        c->win_card = card;
        c->win_seat = seat;
    }
    if (card >= 39) c->broken = 1; /* R-C-6 */
    int r;
    if (c->tlen == n) {
        int winner = c->win_seat, w = c->win_card;
        int sl = c->leader, sf = c->first, scode = c->code;
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
        r = lead(c, u);
        for (int i = 0; i < n; i++) {
            if (saved[i] != w && SUIT(saved[i]) == SUIT(w)) {
                c->rel |= 1ULL << w; /* the winner beat a card of its suit by rank */
                break;
            }
        }
        c->code = scode;
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

static int node(Core *c, double u, int hint) {
    c->nodes++;
    if ((c->budget && c->nodes > c->budget) || c->stopped) {
        c->aborted = 1;
        return 0;
    }
    int seat = c->current;
    int moves[13];
    u64 mask = legal(c, seat);
    int m = distinct(c, seat, mask, moves);
    if (m == 0) return 0; /* not a position of the play (a seat with no card) */
    order(c, moves, m, seat, hint);
    int mine = (seat % 2) == c->side;
    u64 rel = 0;
    for (int i = 0; i < m; i++) {
        int r = play(c, moves[i], u);
        if (c->aborted) return 0;
        if (r == mine) {
            c->best_card = moves[i];
            return r;
        }
        rel |= c->rel;
    }
    c->best_card = moves[0];
    c->rel = whole_runs(c, rel, mask, seat);
    return !mine;
}
