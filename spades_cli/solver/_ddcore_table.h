/* The double-dummy search core (``_ddcore.c``): the partition transposition table. */
/* Included once, in order, by _ddcore.c (one translation unit). */

/* -- transposition table ------------------------------------------------------------ */

/* Zeroed memory for a table, in huge pages where the system offers them (the search
 * reads the tables at random: fewer page faults and TLB misses). */
static void *table_alloc(size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    madvise(p, bytes, MADV_HUGEPAGE);
    return p;
#else
    return calloc(1, bytes);
#endif
}

static void table_free(void *p, size_t bytes) {
    if (!p) return;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    munmap(p, bytes);
#else
    (void)bytes;
    free(p);
#endif
}

/* Tables a solver let go, kept for the next solver of the process (it makes many, one
 * after another, as the analysis and bench/dds.py do): their pages need not be zeroed
 * again. A bucket or entry is valid when its ``used`` is its table's ``epoch``; a kept
 * table is handed out with the next epoch, so what it held is gone at once (zeroed only
 * when the epoch comes round again). At most POOL tables, POOL_BYTES in all. */
#if defined(__linux__) && defined(MADV_HUGEPAGE)
#include <pthread.h>
#define POOL 4
#define POOL_BYTES ((size_t)160 << 20)
static Tables pool[POOL];
static int pool_n;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;

/* Keep ``t`` (1) or not (0: the caller frees it); a larger table displaces the smallest.
 * A table of more than half the pool (one grown past a deal's first size by a long
 * search) is not kept: it would push out the tables the next solvers start with. */
static int pool_put(const Tables *t) {
    size_t bytes = t->bt_bytes + t->pt_bytes, held = 0;
    int smallest = -1;
    if (bytes > POOL_BYTES / 2) return 0;
    pthread_mutex_lock(&pool_lock);
    for (int i = 0; i < pool_n; i++) {
        held += pool[i].bt_bytes + pool[i].pt_bytes;
        if (smallest < 0 || pool[i].pt_bytes < pool[smallest].pt_bytes) smallest = i;
    }
    int at = pool_n < POOL && held + bytes <= POOL_BYTES ? pool_n++ : -1;
    Tables out;
    memset(&out, 0, sizeof out);
    if (at < 0 && smallest >= 0 && pool[smallest].pt_bytes < t->pt_bytes &&
        held - pool[smallest].bt_bytes - pool[smallest].pt_bytes + bytes <= POOL_BYTES) {
        out = pool[smallest];
        at = smallest;
    }
    if (at >= 0) pool[at] = *t;
    pthread_mutex_unlock(&pool_lock);
    if (out.bt) {
        munmap(out.bt, out.bt_bytes);
        munmap(out.pt, out.pt_bytes);
    }
    return at >= 0;
}

/* A kept table of 2**bits entries into ``t``, emptied by a new epoch (1), or none (0). */
static int pool_take(Tables *t, int bits) {
    int found = 0;
    pthread_mutex_lock(&pool_lock);
    for (int i = 0; i < pool_n && !found; i++) {
        if (pool[i].bits != bits) continue;
        *t = pool[i];
        pool[i] = pool[--pool_n];
        found = 1;
    }
    pthread_mutex_unlock(&pool_lock);
    if (found && ++t->epoch == 0) {
        memset(t->bt, 0, t->bt_bytes);
        memset(t->pt, 0, t->pt_bytes);
        t->epoch = 1;
    }
    return found;
}

/* Give every kept table back to the system. */
static void pool_release(void) {
    pthread_mutex_lock(&pool_lock);
    while (pool_n > 0) {
        Tables *t = &pool[--pool_n];
        munmap(t->bt, t->bt_bytes);
        munmap(t->pt, t->pt_bytes);
    }
    pthread_mutex_unlock(&pool_lock);
}
#else
static void pool_release(void) {}
static int pool_put(const Tables *t) { (void)t; return 0; }
static int pool_take(Tables *t, int bits) { (void)t; (void)bits; return 0; }
#endif

static void tables_free(Tables *t) {
    if (!(t->bt && t->pt && pool_put(t))) {
        table_free(t->bt, t->bt_bytes);
        table_free(t->pt, t->pt_bytes);
    }
    memset(t, 0, sizeof *t);
}

/* A table of 2**bits entries (and a quarter as many buckets) that may grow to 2**max_bits. */
static int tables_alloc(Tables *t, int bits, int max_bits) {
    if (!pool_take(t, bits)) {
        t->epoch = 1;
        t->bt_bytes = ((size_t)1 << (bits - 2)) * sizeof(Bucket);
        t->pt_bytes = ((size_t)1 << bits) * sizeof(PEntry);
        t->bt = table_alloc(t->bt_bytes);
        t->pt = table_alloc(t->pt_bytes);
        t->bt_mask = ((u64)1 << (bits - 2)) - 1;
        t->pt_mask = ((u64)1 << bits) - 1;
    }
    t->bits = bits;
    t->max_bits = max_bits;
    t->filled = 0;
    return t->bt && t->pt ? 0 : -1;
}

/* -- its keys ------------------------------------------------------------------------ */

/* Each suit's remaining cards and their owners, two bits a card (the seat's number), the
 * lowest card in the lowest bits; ``b0`` and ``b1`` hold the cards of the seats with
 * that bit set. */
static void suit_owners(Layout *L, u64 uni, u64 b0, u64 b1) {
    for (int s = 0; s < 4; s++) {
        u64 rem = uni & SUIT_MASK[s];
        L->rem[s] = rem >> (16 * s);
        L->len[s] = pop64(rem);
        u64 code = 0;
        while (rem) {
            int card = top64(rem);
            rem ^= 1ULL << card;
            code = (code << 2) | ((b0 >> card) & 1) | (((b1 >> card) & 1) << 1);
        }
        L->own[s] = code;
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
/* The same with the processor's bit gathering (BMI2), where it has it (``have_bmi2``). */
__attribute__((target("bmi2,popcnt"))) static void suit_owners_bmi2(Layout *L, u64 uni, u64 b0, u64 b1) {
    for (int s = 0; s < 4; s++) {
        u64 rem = uni & SUIT_MASK[s];
        L->rem[s] = rem >> (16 * s);
        L->len[s] = (int)_mm_popcnt_u64(rem);
        u64 lo = _pext_u64(b0, rem), hi = _pext_u64(b1, rem);
        L->own[s] = _pdep_u64(lo, 0x5555555555555555ULL) | _pdep_u64(hi, 0xAAAAAAAAAAAAAAAAULL);
    }
}
static int have_bmi2;
#endif

static void layout(Core *c, Layout *L) {
    int n = c->n;
    u64 h1 = c->hands[1], h2 = n > 2 ? c->hands[2] : 0, h3 = n > 3 ? c->hands[3] : 0;
    u64 uni = c->hands[0] | h1 | h2 | h3;
    u64 b0 = h1 | h3, b1 = h2 | h3;
    u64 lens = 0;
    for (int s = 0; s < 4; s++)
        for (int h = 0; h < n; h++) lens |= (u64)pop64(c->hands[h] & SUIT_MASK[s]) << (16 * s + 4 * h);
#if defined(__x86_64__) && defined(__GNUC__)
    if (have_bmi2)
        suit_owners_bmi2(L, uni, b0, b1);
    else
#endif
        suit_owners(L, uni, b0, b1);
    L->lens = lens;
    L->pshift = c->pshift;
    uint32_t flags = (uint32_t)c->leader | ((uint32_t)(c->broken != 0) << 2) | ((uint32_t)(c->first != 0) << 3);
    L->flags = flags;
    L->meta = flags | ((uint32_t)(c->count_mode ? 0 : c->code) << 4);
}

static void pattern(const Layout *L, int shape, u64 *pa, u64 *pb) {
    u64 p[4];
    for (int s = 0; s < 4; s++) {
        int k = (shape >> (4 * s)) & 15;
        p[s] = k ? L->own[s] >> (2 * (L->len[s] - k)) : 0;
    }
    *pa = p[0] | (p[1] << L->pshift);
    *pb = p[2] | (p[3] << L->pshift);
}

/* The cards (a mask) that mark where each suit's counted top cards end. */
static u64 relevant(const Layout *L, int shape) {
    if (shape < 0) return 0;
    u64 out = 0;
    for (int s = 0; s < 4; s++) {
        int k = (shape >> (4 * s)) & 15;
        if (!k) continue;
        u64 rem = L->rem[s];
        while (k > 1) {
            rem ^= 1ULL << top64(rem);
            k--;
        }
        out |= 1ULL << (top64(rem) + 16 * s);
    }
    return out;
}

/* How many top cards of each suit reach down to the lowest relevant card. */
static int shape_of(const Layout *L, u64 rel) {
    int shape = 0;
    for (int s = 0; s < 4; s++) {
        u64 r = (rel >> (16 * s)) & 0xFFFF;
        if (!r) continue;
        u64 low = r & (~r + 1);
        int k = pop64(L->rem[s] & ~(low - 1));
        /* at most 15 (4 bits): the top 15 owners of 16 cards and the lengths tell the last's */
        shape |= (k < 16 ? k : 15) << (4 * s);
    }
    return shape;
}

static inline u64 mix(u64 a, u64 b, u64 k) {
    u64 h = a * 0x9E3779B97F4A7C15ULL;
    h ^= (b + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= k * 0x165667B19E3779F9ULL;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 32;
    return h;
}

static int to_relative(Core *c, int card) {
    if (card < 0) return -1;
    int suit = SUIT(card);
    u64 above = ~c->gone & SUIT_MASK[suit] & ~((2ULL << card) - 1);
    return suit * 16 + pop64(above);
}

static int from_relative(Core *c, int rel) {
    if (rel < 0) return -1;
    int suit = rel / 16, k = rel % 16;
    u64 rem = ~c->gone & SUIT_MASK[suit];
    while (rem) {
        int card = top64(rem);
        if (k == 0) return card;
        k--;
        rem ^= 1ULL << card;
    }
    return -1;
}

static inline u64 bslot(const Tables *t, const Layout *L, uint32_t meta) {
    return mix(L->lens, 0x5bd1e995ULL, meta) & t->bt_mask;
}

static inline u64 pslot(const Tables *t, const Layout *L, uint32_t meta, int shape, u64 pa, u64 pb) {
    return mix(pa ^ (L->lens * 31), pb ^ ((u64)shape << 40), meta) & t->pt_mask;
}

static inline int entry_is(const PEntry *e, uint8_t epoch, const Layout *L, uint32_t meta, int shape, u64 pa,
                           u64 pb) {
    return e->used == epoch && e->shape == shape && e->pa == pa && e->pb == pb && e->lens == L->lens && e->meta == meta;
}

/* A table starts small (a short search needs little, and a large one costs its pages'
 * zeroing at every new solver) and grows fourfold, up to 2**max_bits entries, when
 * more entries were made than 1/GROW_AT of its size: its buckets and entries are moved
 * to the new one (where every way of a slot is taken, the later stays out). An entry
 * lies in one of the WAYS ways of its slot (WAYS entries side by side), the newest first:
 * four ways and growing at a quarter full lose few entries and zero fewer pages than
 * fewer ways growing sooner (bench/README.md). */
#define GROW_AT 4
#define WAYS 4
#define START_BITS 14

/* The entries made after which a table grows: a step of less than fourfold (a
 * deal's table, from 2**20 entries to 2**21: solver/fast.py) waits until as many were
 * made as the table holds. Only the longest searches (the exact trick counts of the
 * points near the bag limit) need it, and a grown table's pages are all touched
 * (bench/README.md). */
static inline size_t grow_at(const Tables *t) {
    size_t size = (size_t)1 << t->bits;
    return t->bits + 2 <= t->max_bits ? size / GROW_AT : size;
}
static void tables_grow(Tables *t) {
    Tables nt;
    int bits = t->bits + 2 < t->max_bits ? t->bits + 2 : t->max_bits;
    if (tables_alloc(&nt, bits, t->max_bits) < 0) {
        tables_free(&nt);
        t->max_bits = t->bits; /* no memory: stay as it is */
        return;
    }
    for (u64 i = 0; i <= t->bt_mask; i++) {
        const Bucket *b = &t->bt[i];
        if (b->used != t->epoch) continue;
        Bucket *to = &nt.bt[mix(b->lens, 0x5bd1e995ULL, b->meta) & nt.bt_mask];
        if (to->used != nt.epoch) {
            *to = *b;
            to->used = nt.epoch;
        }
    }
    for (u64 i = 0; i <= t->pt_mask; i++) {
        const PEntry *e = &t->pt[i];
        if (e->used != t->epoch) continue;
        u64 at = mix(e->pa ^ (e->lens * 31), e->pb ^ ((u64)e->shape << 40), e->meta) & nt.pt_mask;
        PEntry *to = &nt.pt[at & ~(u64)(WAYS - 1)];
        for (int w = 0; w < WAYS - 1 && to->used == nt.epoch; w++) to++;
        if (to->used != nt.epoch) {
            *to = *e;
            to->used = nt.epoch;
            nt.filled++;
        }
    }
    tables_free(t);
    *t = nt;
}

/* The best bounds ``t`` keeps for positions like ``L`` (``meta``: its flags, and the code
 * in table mode), with the shapes that gave them; the best card of the most specific
 * entry that matched (-1: none). An entry with ``lo >= stop_lo`` or ``hi <= stop_hi``
 * answers the caller's question: the probe ends there, and its shape moves to the front
 * of the bucket's list, so that the shapes that answer are read first (the entries of
 * a bucket lie apart in memory, a read each: read a few at a time, not all at once). */
#define PROBE_BATCH 8
static int probe(Tables *t, const Layout *L, uint32_t meta, double stop_lo, double stop_hi, double *lo,
                 double *hi, int *lo_shape, int *hi_shape) {
    Bucket *b = &t->bt[bslot(t, L, meta)];
    *lo_shape = *hi_shape = -1;
    if (!(b->used == t->epoch && b->lens == L->lens && b->meta == meta)) return -1;
    int count = b->count;
    u64 pas[NSHAPES], pbs[NSHAPES];
    PEntry *es[NSHAPES];
    int best = -1, best_size = -1;
    for (int at = 0; at < count; at += PROBE_BATCH) {
        int end = at + PROBE_BATCH < count ? at + PROBE_BATCH : count;
        for (int i = at; i < end; i++) { /* the batch's slots asked for first, so the misses overlap */
            pattern(L, b->shapes[i], &pas[i], &pbs[i]);
            es[i] = &t->pt[pslot(t, L, meta, b->shapes[i], pas[i], pbs[i]) & ~(u64)(WAYS - 1)];
            for (int w = 0; w < WAYS; w++) __builtin_prefetch(es[i] + w);
        }
        for (int i = at; i < end; i++) {
            int shape = b->shapes[i];
            PEntry *e = es[i];
            int w = 0;
            while (w < WAYS && !entry_is(e, t->epoch, L, meta, shape, pas[i], pbs[i])) {
                e++; /* the slot's next way */
                w++;
            }
            if (w == WAYS) continue;
            if (e->lo > *lo) {
                *lo = e->lo;
                *lo_shape = shape;
            }
            if (e->hi < *hi) {
                *hi = e->hi;
                *hi_shape = shape;
            }
            if (e->lo >= stop_lo || e->hi <= stop_hi) {
                for (int j = i; j > 0; j--) b->shapes[j] = b->shapes[j - 1];
                b->shapes[0] = (uint16_t)shape;
                return -1;
            }
            int size = (shape & 15) + ((shape >> 4) & 15) + ((shape >> 8) & 15) + (shape >> 12);
            if (e->best >= 0 && size > best_size) {
                best = e->best;
                best_size = size;
            }
        }
    }
    return best;
}

/* Tighten the bounds of the positions like ``L`` that agree down to the cards ``rel``
 * (a new entry starts from ``lo0`` .. ``hi0``: nothing known). */
static void store(Tables *t, const Layout *L, uint32_t meta, u64 rel, double lo, double hi, int best, double lo0,
                  double hi0) {
    int shape = shape_of(L, rel);
    Bucket *b = &t->bt[bslot(t, L, meta)];
    if (!(b->used == t->epoch && b->lens == L->lens && b->meta == meta)) {
        b->used = t->epoch;
        b->lens = L->lens;
        b->meta = meta;
        b->count = 0;
    }
    int have = 0;
    for (int i = 0; i < b->count; i++)
        if (b->shapes[i] == shape) have = 1;
    if (!have) { /* a new shape goes first; the one read least lately goes when the list is full */
        int k = b->count < NSHAPES ? b->count++ : NSHAPES - 1;
        for (int j = k; j > 0; j--) b->shapes[j] = b->shapes[j - 1];
        b->shapes[0] = (uint16_t)shape;
    }
    u64 pa, pb;
    pattern(L, shape, &pa, &pb);
    PEntry *e = &t->pt[pslot(t, L, meta, shape, pa, pb) & ~(u64)(WAYS - 1)], *first = e;
    int w = 0;
    while (w < WAYS && !entry_is(e, t->epoch, L, meta, shape, pa, pb)) {
        e++;
        w++;
    }
    if (w == WAYS) {
        /* A new entry takes the slot's first way; the others move down one, up to the first
         * free way (none free: the last goes out). */
        int k = 0;
        while (k < WAYS - 1 && first[k].used == t->epoch) k++;
        memmove(first + 1, first, (size_t)k * sizeof *first);
        e = first;
        t->filled++;
        e->used = t->epoch;
        e->shape = (uint16_t)shape;
        e->pa = pa;
        e->pb = pb;
        e->lens = L->lens;
        e->meta = meta;
        e->best = -1;
        e->lo = lo0;
        e->hi = hi0;
    }
    if (lo > e->lo) e->lo = lo;
    if (hi < e->hi) e->hi = hi;
    if (best >= 0) e->best = (int8_t)best;
    if (t->bits < t->max_bits && t->filled > grow_at(t)) tables_grow(t);
}
