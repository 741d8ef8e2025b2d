/*
 * tinyllm/topk.h: the k largest values of a float row and their indices, best first.
 *
 * The C ABI of the Rust crate tinytopk (library tinytopk_capi: libtinytopk_capi.a or
 * libtinytopk_capi.so). Written by hand; C11 and C++17.
 *
 * Ownership: every buffer belongs to the caller. The library keeps no pointer after a call
 * returns, has no global state and allocates nothing, on every path.
 *
 * Thread safety: calls are independent and may run concurrently from any threads, as long as
 * no other thread writes x, idx or val during a call.
 *
 * Panics: none. The function does not unwind into C; a fault inside the library would be a bug
 * in it and would abort the process rather than return.
 */
#ifndef TINYLLM_TOPK_H
#define TINYLLM_TOPK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * What a call did. TL_OK is 0. TL_EINVAL is 22, the value of EINVAL in <errno.h> on Linux,
 * macOS and Windows, so that it reads the same in logs; compare with the name, not the number.
 */
typedef enum tl_status {
    TL_OK = 0,      /* done: the outputs hold the answer */
    TL_EINVAL = 22  /* rejected: an argument is invalid; nothing was written */
} tl_status;

/*
 * The k largest values of x[0..n) and their indices, best first: idx[0..k) and val[0..k) get
 * the indices and values in descending order of value; equal values come out by ascending
 * index, and the lower index wins the last place. -inf is an ordinary value (it ranks last);
 * -0.0 and 0.0 are equal values, and each written value has the bits of x[idx[i]].
 *
 * x    n readable floats. May be NULL only when n == 0.
 * n    0 <= n <= 2^31 (INT32_MAX + 1), so that every index 0..n-1 fits in int32_t.
 * k    0 <= k <= n. k == 0 writes nothing and returns TL_OK (once x is checked for NaN).
 * idx  k writable int32_t. May be NULL only when k == 0.
 * val  k writable floats. May be NULL only when k == 0.
 *
 * x, idx and val must each be aligned for their type, and the ranges the call uses must not
 * overlap one another.
 *
 * Returns TL_OK, or TL_EINVAL with idx and val untouched when: n < 0 or n > 2^31; k < 0 or
 * k > n; a pointer the call would use (x when n > 0, idx and val when k > 0) is NULL or
 * misaligned; the used ranges of x, idx and val overlap; or any x[i] is a NaN (any bit
 * pattern, whatever k is). Everything is checked before the first write.
 *
 * Cost: one pass over x plus about k*ln(n/k) heap insertions on a row in random order;
 * O(n log k) at worst. Allocates nothing.
 */
tl_status tl_topk_f32(const float *x, int64_t n, int64_t k, int32_t *idx, float *val);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TINYLLM_TOPK_H */
