/*
 * The catalog of the C contract of tl_topk_f32, as a standalone C test binary.
 *
 * Built by capi/tests/c_test.rs (run by `cargo test`) against libtinytopk_capi.a with
 *   gcc -std=c11 -Wall -Wextra -Werror -fsanitize=address,undefined -fno-sanitize-recover=all
 * Prints one line per failed check, then "N passed, N failed" (tests, not checks); exits 0
 * only when nothing failed.
 *
 * `test_topk asan-canary` and `test_topk ubsan-canary` each commit one fault that the
 * sanitizer must stop: the Rust side runs them to prove the sanitizers are really there.
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tinyllm/topk.h>

_Static_assert(TL_OK == 0, "TL_OK is 0");
_Static_assert(TL_EINVAL != TL_OK, "TL_EINVAL is an error");

/* ---------------------------------------------------------------------------------------- */
/* A minimal harness: CHECK records a failure of the current test and goes on.               */

static int current_failures;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            current_failures++;                                                      \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                            \
    } while (0)

/* What the outputs hold before a call that must not write. */
#define IDX_SENTINEL ((int32_t)0x5EADBEEF)
#define VAL_SENTINEL 12345.0f

/* Places after the k output places that must stay sentinels: the library writes only k. */
#define GUARD 4

static uint32_t bits_of(float v) {
    uint32_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

static float float_of(uint32_t b) {
    float v;
    memcpy(&v, &b, sizeof v);
    return v;
}

/* Whether idx[0..k) and val[0..k) are exactly the expected entries, values bit for bit. */
static int entries_are(const int32_t *idx, const float *val, const int32_t *want_idx,
                       const float *want_val, int64_t k) {
    for (int64_t i = 0; i < k; i++) {
        if (idx[i] != want_idx[i] || bits_of(val[i]) != bits_of(want_val[i])) {
            fprintf(stderr, "  place %" PRId64 ": got (%" PRId32 ", %g), want (%" PRId32 ", %g)\n",
                    i, idx[i], (double)val[i], want_idx[i], (double)want_val[i]);
            return 0;
        }
    }
    return 1;
}

static void fill_sentinels(int32_t *idx, float *val, int64_t len) {
    for (int64_t i = 0; i < len; i++) {
        idx[i] = IDX_SENTINEL;
        val[i] = VAL_SENTINEL;
    }
}

static int all_sentinels(const int32_t *idx, const float *val, int64_t len) {
    for (int64_t i = 0; i < len; i++) {
        if (idx[i] != IDX_SENTINEL || bits_of(val[i]) != bits_of(VAL_SENTINEL)) {
            return 0;
        }
    }
    return 1;
}

/* Runs tl_topk_f32(x, n, k) into fresh heap buffers of k + GUARD places and checks TL_OK,
   the expected entries and untouched guards. */
static int gives(const float *x, int64_t n, int64_t k, const int32_t *want_idx,
                 const float *want_val) {
    size_t places = (size_t)k + GUARD;
    int32_t *idx = malloc(places * sizeof *idx);
    float *val = malloc(places * sizeof *val);
    int ok = idx != NULL && val != NULL;
    if (ok) {
        fill_sentinels(idx, val, (int64_t)places);
        tl_status s = tl_topk_f32(x, n, k, idx, val);
        ok = s == TL_OK && entries_are(idx, val, want_idx, want_val, k) &&
             all_sentinels(idx + k, val + k, GUARD);
        if (!ok) {
            fprintf(stderr, "  n = %" PRId64 ", k = %" PRId64 ", status %d\n", n, k, (int)s);
        }
    }
    free(idx);
    free(val);
    return ok;
}

/* Whether the call is rejected with TL_EINVAL and leaves the sentinels of idx and val as
   they were (`places` of them, when the pointers are not NULL). */
static int rejected(const float *x, int64_t n, int64_t k, int32_t *idx, float *val,
                    int64_t places) {
    if (idx != NULL && val != NULL) {
        fill_sentinels(idx, val, places);
    }
    tl_status s = tl_topk_f32(x, n, k, idx, val);
    int untouched = 1;
    for (int64_t i = 0; i < places; i++) {
        if (idx != NULL && idx[i] != IDX_SENTINEL) {
            untouched = 0;
        }
        if (val != NULL && bits_of(val[i]) != bits_of(VAL_SENTINEL)) {
            untouched = 0;
        }
    }
    if (s != TL_EINVAL || !untouched) {
        fprintf(stderr, "  n = %" PRId64 ", k = %" PRId64 ": status %d, untouched %d\n", n, k,
                (int)s, untouched);
        return 0;
    }
    return 1;
}

/* ---------------------------------------------------------------------------------------- */
/* The catalog.                                                                              */

static void hand_example(void) {
    const float x[] = {1, 3, 2, 3, -1};
    int32_t idx[3];
    float val[3];
    CHECK(tl_topk_f32(x, 5, 3, idx, val) == TL_OK);
    CHECK(idx[0] == 1 && idx[1] == 3 && idx[2] == 2);
    CHECK(val[0] == 3.0f && val[1] == 3.0f && val[2] == 2.0f);
}

static void tie_at_the_cut_goes_to_the_lower_index(void) {
    const float x[] = {5, 1, 1, 1, 1, 0};
    CHECK(gives(x, 6, 2, (const int32_t[]){0, 1}, (const float[]){5, 1}));
    /* The tie moves with the cut: k = 4 keeps the three lowest of the four 1s. */
    CHECK(gives(x, 6, 4, (const int32_t[]){0, 1, 2, 3}, (const float[]){5, 1, 1, 1}));
    /* The tied value first, the better value last. */
    const float y[] = {1, 1, 1, 7};
    CHECK(gives(y, 4, 2, (const int32_t[]){3, 0}, (const float[]){7, 1}));
}

static void equal_values_are_listed_by_ascending_index(void) {
    const int64_t sizes[] = {1, 2, 3, 10, 33};
    float x[33];
    int32_t want_idx[33];
    float want_val[33];
    for (int i = 0; i < 33; i++) {
        x[i] = 0.25f;
        want_idx[i] = i;
        want_val[i] = 0.25f;
    }
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        for (int64_t k = 0; k <= sizes[s]; k++) {
            CHECK(gives(x, sizes[s], k, want_idx, want_val));
        }
    }
    /* -0.0 and 0.0 are equal values: they tie and come out by index, each with its own bits. */
    const float z[] = {0.0f, -0.0f, 0.0f, -0.0f, -1.0f};
    CHECK(gives(z, 5, 4, (const int32_t[]){0, 1, 2, 3},
                (const float[]){0.0f, -0.0f, 0.0f, -0.0f}));
    /* Interleaved: equal values separated by others. */
    const float w[] = {2, 5, 2, 5, 2, 5};
    CHECK(gives(w, 6, 5, (const int32_t[]){1, 3, 5, 0, 2}, (const float[]){5, 5, 5, 2, 2}));
}

static void k_zero_and_k_equal_n(void) {
    const float x[] = {3, -1, 4, 1, 5, 9, 2, 6};
    int32_t idx[8];
    float val[8];
    /* k = 0 is "off": TL_OK and nothing written, and idx and val may then be NULL. */
    fill_sentinels(idx, val, 8);
    CHECK(tl_topk_f32(x, 8, 0, idx, val) == TL_OK);
    CHECK(all_sentinels(idx, val, 8));
    CHECK(tl_topk_f32(x, 8, 0, NULL, NULL) == TL_OK);
    /* n = 0: x may be NULL, and k = 0 is the only valid k. */
    CHECK(tl_topk_f32(NULL, 0, 0, NULL, NULL) == TL_OK);
    CHECK(tl_topk_f32(x, 0, 0, idx, val) == TL_OK);
    CHECK(all_sentinels(idx, val, 8));
    CHECK(rejected(x, 0, 1, idx, val, 8));
    CHECK(rejected(NULL, 0, 1, idx, val, 8));
    /* k = n is a full sort. */
    CHECK(gives(x, 8, 8, (const int32_t[]){5, 7, 4, 2, 0, 6, 3, 1},
                (const float[]){9, 6, 5, 4, 3, 2, 1, -1}));
    /* k = n = 1. */
    CHECK(gives(x, 1, 1, (const int32_t[]){0}, (const float[]){3}));
}

static void minus_infinity_is_an_ordinary_value(void) {
    const float x[] = {-INFINITY, 0.5f, -INFINITY, -1e30f, -INFINITY};
    CHECK(gives(x, 5, 4, (const int32_t[]){1, 3, 0, 2},
                (const float[]){0.5f, -1e30f, -INFINITY, -INFINITY}));
    /* A fully masked row: every entry is -inf, listed by index. */
    const float masked[] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY};
    CHECK(gives(masked, 6, 6, (const int32_t[]){0, 1, 2, 3, 4, 5}, masked));
    /* +inf ranks first, and the extremes sit between the infinities. */
    const float y[] = {-3.4028235e38f, INFINITY, -INFINITY, 3.4028235e38f};
    CHECK(gives(y, 4, 4, (const int32_t[]){1, 3, 0, 2},
                (const float[]){INFINITY, 3.4028235e38f, -3.4028235e38f, -INFINITY}));
}

static void nan_and_bad_k_are_einval_and_write_nothing(void) {
    /* NaNs of several bit patterns: quiet, signalling, negative, with payloads. */
    const uint32_t nan_bits[] = {0x7FC00000u, 0x7F800001u, 0xFFC00000u, 0xFFFFFFFFu,
                                 0x7FABCDEFu};
    const float base[] = {4, -INFINITY, 7, 0, 7, -2, 1};
    const int64_t n = 7;
    int32_t idx[8];
    float val[8];
    for (size_t b = 0; b < sizeof nan_bits / sizeof nan_bits[0]; b++) {
        const int64_t positions[] = {0, n / 2, n - 1};
        for (size_t p = 0; p < 3; p++) {
            float x[7];
            memcpy(x, base, sizeof x);
            x[positions[p]] = float_of(nan_bits[b]);
            CHECK(isnan(x[positions[p]]));
            /* Any NaN is an error whatever k is, k = 0 and k = n included. */
            const int64_t ks[] = {0, 1, 3, n};
            for (size_t j = 0; j < 4; j++) {
                CHECK(rejected(x, n, ks[j], idx, val, 8));
            }
        }
    }
    /* k > n and k < 0, for several n. */
    for (int64_t m = 0; m < 4; m++) {
        CHECK(rejected(base, m, m + 1, idx, val, 8));
        CHECK(rejected(base, m, -1, idx, val, 8));
    }
    CHECK(rejected(base, n, INT64_MAX, idx, val, 8));
    CHECK(rejected(base, n, INT64_MIN, idx, val, 8));
    /* n < 0. */
    CHECK(rejected(base, -1, 0, idx, val, 8));
    CHECK(rejected(base, INT64_MIN, 0, idx, val, 8));
    /* n too long for int32_t indices: rejected before x is read. */
    CHECK(rejected(base, (int64_t)INT32_MAX + 2, 1, idx, val, 8));
    CHECK(rejected(base, INT64_MAX, 1, idx, val, 8));
    /* A NULL pointer that would be used. */
    CHECK(rejected(NULL, n, 1, idx, val, 8));
    CHECK(rejected(NULL, n, 0, idx, val, 8));
    fill_sentinels(idx, val, 8);
    CHECK(tl_topk_f32(base, n, 2, NULL, val) == TL_EINVAL);
    CHECK(tl_topk_f32(base, n, 2, idx, NULL) == TL_EINVAL);
    CHECK(tl_topk_f32(base, n, 2, NULL, NULL) == TL_EINVAL);
    CHECK(all_sentinels(idx, val, 8));
    /* A misaligned pointer that would be used (made as an integer, never dereferenced). */
    float *odd_val = (float *)((uintptr_t)val + 1);
    int32_t *odd_idx = (int32_t *)((uintptr_t)idx + 2);
    const float *odd_x = (const float *)((uintptr_t)base + 1);
    CHECK(tl_topk_f32(base, n, 2, idx, odd_val) == TL_EINVAL);
    CHECK(tl_topk_f32(base, n, 2, odd_idx, val) == TL_EINVAL);
    CHECK(tl_topk_f32(odd_x, 2, 1, idx, val) == TL_EINVAL);
    CHECK(all_sentinels(idx, val, 8));
    /* Used ranges that overlap: val inside x, val over idx (the same bytes). */
    float row[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    float row_before[8];
    memcpy(row_before, row, sizeof row);
    CHECK(tl_topk_f32(row, 8, 2, idx, row + 6) == TL_EINVAL);
    CHECK(tl_topk_f32(row, 8, 2, (int32_t *)(void *)row, val) == TL_EINVAL);
    CHECK(memcmp(row, row_before, sizeof row) == 0);
    CHECK(tl_topk_f32(base, n, 2, idx, (float *)(void *)(idx + 1)) == TL_EINVAL);
    CHECK(all_sentinels(idx, val, 8));
    /* Adjacent is not overlapping: val right after x, right after idx. */
    CHECK(tl_topk_f32(row, 6, 2, idx, row + 6) == TL_OK);
    CHECK(idx[0] == 5 && idx[1] == 4 && row[6] == 6.0f && row[7] == 5.0f);
}

/* --- matches_a_full_sort ------------------------------------------------------------------ */

/* splitmix64: the same generator as the Rust tests' data. */
static uint64_t rng_state;

static uint64_t next_u64(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static size_t below(size_t n) { return (size_t)(next_u64() % n); }

struct entry {
    float value;
    int32_t index;
};

/* The order, written here without the library: larger value first (IEEE: -0.0 == 0.0),
   then lower index first. */
static int best_first(const void *pa, const void *pb) {
    const struct entry *a = pa, *b = pb;
    if (a->value > b->value) return -1;
    if (a->value < b->value) return 1;
    return (a->index > b->index) - (a->index < b->index);
}

static void matches_a_full_sort(void) {
    /* Values that make ties and edge cases likely: both zeros, both infinities, the
       extremes, subnormals, and a few ordinary values. */
    const float pool_of_all[] = {0.0f,     -0.0f,         1.0f,          -1.0f,   2.5f,
                                 -2.5f,    INFINITY,      -INFINITY,     3.4028235e38f,
                                 -3.4028235e38f, 1.17549435e-38f, 1e-45f, -1e-45f, 1.0e-40f};
    const size_t pool_len = sizeof pool_of_all / sizeof pool_of_all[0];
    rng_state = 0x0070704b;
    for (int row = 0; row < 300; row++) {
        const size_t n = below(41);
        /* A pool of 1 to 6 values makes ties the rule, not the exception. */
        float pool[6];
        const size_t pool_size = 1 + (size_t)row % 6;
        for (size_t i = 0; i < pool_size; i++) {
            pool[i] = pool_of_all[below(pool_len)];
        }
        /* Exactly n floats on the heap, so that ASan sees a read past the row. */
        float *x = malloc((n ? n : 1) * sizeof *x);
        struct entry *sorted = malloc((n ? n : 1) * sizeof *sorted);
        if (x == NULL || sorted == NULL) {
            CHECK(!"out of memory");
            free(x);
            free(sorted);
            return;
        }
        for (size_t i = 0; i < n; i++) {
            x[i] = pool[below(pool_size)];
            sorted[i].value = x[i];
            sorted[i].index = (int32_t)i;
        }
        qsort(sorted, n, sizeof *sorted, best_first);
        int32_t want_idx[40];
        float want_val[40];
        for (size_t i = 0; i < n; i++) {
            want_idx[i] = sorted[i].index;
            want_val[i] = sorted[i].value;
        }
        for (size_t k = 0; k <= n; k++) {
            CHECK(gives(x, (int64_t)n, (int64_t)k, want_idx, want_val));
        }
        int32_t idx[41 + GUARD];
        float val[41 + GUARD];
        CHECK(rejected(x, (int64_t)n, (int64_t)n + 1, idx, val, 41 + GUARD));
        free(x);
        free(sorted);
    }
}

/* ---------------------------------------------------------------------------------------- */

/* Faults the sanitizers must stop, to prove they are compiled in. */
static int canary(const char *which) {
    if (strcmp(which, "asan-canary") == 0) {
        volatile size_t len = 4; /* volatile: no compile-time warning, a run-time fault */
        volatile int32_t *p = malloc(len * sizeof *p);
        int32_t past_the_end = p[len]; /* heap-buffer-overflow */
        free((void *)p);
        return past_the_end == 12345 ? 3 : 4;
    }
    if (strcmp(which, "ubsan-canary") == 0) {
        volatile int32_t big = INT32_MAX;
        return big + 1 == 0 ? 3 : 4; /* signed integer overflow */
    }
    fprintf(stderr, "unknown argument %s\n", which);
    return 2;
}

int main(int argc, char **argv) {
    if (argc > 1) {
        return canary(argv[1]);
    }
    static const struct {
        const char *name;
        void (*run)(void);
    } tests[] = {
        {"hand_example", hand_example},
        {"tie_at_the_cut_goes_to_the_lower_index", tie_at_the_cut_goes_to_the_lower_index},
        {"equal_values_are_listed_by_ascending_index",
         equal_values_are_listed_by_ascending_index},
        {"k_zero_and_k_equal_n", k_zero_and_k_equal_n},
        {"minus_infinity_is_an_ordinary_value", minus_infinity_is_an_ordinary_value},
        {"nan_and_bad_k_are_einval_and_write_nothing",
         nan_and_bad_k_are_einval_and_write_nothing},
        {"matches_a_full_sort", matches_a_full_sort},
    };
    int passed = 0, failed = 0;
    for (size_t t = 0; t < sizeof tests / sizeof tests[0]; t++) {
        current_failures = 0;
        tests[t].run();
        if (current_failures == 0) {
            passed++;
            printf("ok     %s\n", tests[t].name);
        } else {
            failed++;
            printf("FAILED %s (%d checks)\n", tests[t].name, current_failures);
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
